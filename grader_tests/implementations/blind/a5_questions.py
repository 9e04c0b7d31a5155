"""Blind contract check of 5.4 (stretch, after its "of your own" rule): three students from the release alone, 2026-12-05 (one keeps a given question beside three of its own)."""
S1 = {"doc_choice": r'''DOC_CHOICE = "jupyterlab"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    # YOUR CODE HERE
    raise NotImplementedError()''',
      "my_questions": r'''MY_QUESTIONS = [
    ("Which package managers can I install JupyterLab with?",
     ["If you use [conda](https://docs.conda.io/en/latest/), [mamba](https://mamba.readthedocs.io/en/latest/), or [pip](https://docs.python.org/3/installing/index.html), you can install JupyterLab"]),
    ("How can JupyterLab be extended?",
     ["JupyterLab can be extended using [npm](https://www.npmjs.com/) packages\nthat use our public APIs."]),
    ("Under which license is JupyterLab's code released?",
     ["All code is licensed under the terms of the revised [BSD license](https://github.com/jupyterlab/jupyterlab/blob/4.6.x/LICENSE)."]),
    ("When are the JupyterLab weekly meetings?",
     ["We have video conference meetings every week",
      "- When: Wednesdays 9:00 AM Pacific Time (USA)"]),
]
try:  # leave these lines as they are and write your questions in the list above
    # YOUR CODE HERE
    raise NotImplementedError()
except NotImplementedError:  # an empty list runs on: 5.5 then measures the given questions
    pass'''}
S2 = {"doc_choice": r'''DOC_CHOICE = "ipykernel"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    # YOUR CODE HERE
    raise NotImplementedError()''',
      "my_questions": r'''MY_QUESTIONS = [
    ("What do ipython commands use after installing from source?",
     ["After that, all normal `ipython` commands will use this newly-installed version of the kernel."]),
    ("Who belongs to the IPython Development Team?",
     ["The IPython Development Team is the set of all contributors to the IPython project."]),
    ("Where can I find IPython's core team?",
     ["The core team that coordinates development on GitHub can be found here:\nhttps://github.com/ipython/."]),
    ("Which copyright banner goes in IPython source files?",
     ["# Copyright (c) IPython Development Team.\n# Distributed under the terms of the Modified BSD License."]),
]
try:  # leave these lines as they are and write your questions in the list above
    # YOUR CODE HERE
    raise NotImplementedError()
except NotImplementedError:  # an empty list runs on: 5.5 then measures the given questions
    pass'''}
S3 = {"doc_choice": r'''DOC_CHOICE = "tiktoken"   # change the name to choose another document
if not DOC_CHOICE:        # no name chosen: stop here
    # YOUR CODE HERE
    raise NotImplementedError()''',
      "my_questions": r'''MY_QUESTIONS = [
    ("How much faster is tiktoken than other tokenisers?",
     ["`tiktoken` is between 3-6x faster than a comparable open source tokeniser"]),
    ("How many bytes is one token on average?",
     ["On average, in practice, each token corresponds to about 4 bytes."]),
    ("Where is the tiktoken tokeniser API documented?",
     ["The tokeniser API is documented in `tiktoken/core.py`."]),
    ("Should my tiktoken extension be an editable install?",
     ["Make sure **not** to use an editable install."]),
]
try:  # leave these lines as they are and write your questions in the list above
    # YOUR CODE HERE
    raise NotImplementedError()
except NotImplementedError:  # an empty list runs on: 5.5 then measures the given questions
    pass'''}
BLIND = {"jupyterlab": S1, "ipykernel": S2, "tiktoken-plus-given": S3}
