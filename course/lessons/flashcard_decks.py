"""One small flashcard deck per assignment: key facts, common mistakes, and review.

Each deck is a list of ``Card``s. The cards restate what the notebooks teach; the numbers on
them come from the notebooks' own worked examples. Every back is plain text, because a student
can import or print this module at any time: so a card of deck *N* never answers a graded
question of assignment *N* or a later one. A card that does answer one reviews it a day later,
in a later assignment's deck (spaced repetition), and ``reviews`` names the graded answers it
goes over (``grader_tests/test_answer_order.py`` holds every deck to that).
"""
from typing import NamedTuple


class Card(NamedTuple):
    front: str
    back: str
    reviews: tuple[str, ...] = ()   # graded answers of an earlier assignment this card goes over


DECKS: dict[str, list[Card]] = {
    "01": [
        Card('What does a retriever hand to the model: documents or chunks?',
             'Chunks. Whatever no single chunk holds, the model never sees together.'),
        Card('Greedy paragraph packing: when does a paragraph join the current chunk?',
             "When the chunk's word count plus the paragraph's own stays within the limit (≤ "
             "max_words); otherwise it starts a new chunk."),
        Card('Is a paragraph that fits within the limit ever split?',
             'No. It is kept whole and verbatim; only a paragraph longer than the limit is cut, '
             'into consecutive pieces of max_words words.'),
        Card('A paragraph of 250 words at a limit of 100: how many pieces?',
             'Three: 100, 100 and 50 words. The last piece may be shorter; losing it is a classic '
             'bug.'),
        Card('When is a question answerable from a chunking?',
             'When one single chunk holds every piece of its evidence. Pieces spread over two '
             'chunks do not count.'),
        Card('Does a larger chunk limit always answer more questions?',
             'No. Judge a chunking by the questions it answers, not by how tidy or big its chunks '
             'are; bigger chunks also blur the vector (many topics, one embedding).'),
    ],
    "02": [
        Card('Window size C, overlap O: what is the stride?',
             'S = C − O: each window starts that many units after the one before.'),
        Card('How many windows for N > 0 units (coverage-stopping)?',
             'K = 1 + ⌈max(0, N − C) / (C − O)⌉.'),
        Card('Worked example: N = 1000, C = 200, O = 50. How many windows, and how many stored '
             'positions?',
             '7 windows (stride 150; 1 + ⌈800/150⌉); 6 × 200 + 100 = 1300 stored positions, a '
             'duplication factor of 1.3.'),
        Card('What must a token window never do when decoded?',
             'Cut a character in half (a U+FFFD � in the text): move the boundary to a token that '
             'ends a character, and still keep every window within size.'),
        Card('Can a better boundary rule fix a question whose evidence sits in two sections?',
             'No. No boundary rule puts two distant sections in one chunk; that needs retrieving '
             'more than one chunk, or a different design.',
             reviews=('needs_two_sections', 'understanding')),
    ],
    "03": [
        Card('Fixed, recursive, structure-aware: one line each on the mechanism.',
             'Fixed: cut every C units. Recursive: split on the best separator present (blank '
             'line, newline, sentence end, space, hard cut) and merge pieces up to the limit. '
             'Structure-aware: one chunk per section under its heading.'),
        Card('Cut, severed, lost: what does each word mean?',
             'Cut: a chunk boundary falls inside a unit (a sentence, a rule, a table row) and '
             'no chunk holds it whole (overlap can repair a cut). '
             'Severed: every part of an answer survives, but in different chunks. Lost: a part is '
             'in no chunk whole, so no chunk can ever show it.'),
        Card("Why prefix a chunk's text with its heading path, e.g. 'Policy > Travel: …'?",
             'The section name then takes part in the embedding, lifting section-flavoured '
             'queries, and a reader of the chunk alone knows its context.'),
        Card('You change the chunker. What else must be redone?',
             'Re-embed and re-index every chunk. Chunks and their vectors must stay in lockstep; '
             'a partial re-index mixes two chunking generations.'),
        Card('Is overlap new evidence?',
             'No. It stores text another window already holds: it can keep a straddling sentence '
             'whole, but it costs storage, embedding calls and top-k slots, and adds no fact.',
             reviews=('overlap_evidence',)),
        Card('What goes wrong with the blind loop `while start < n: start += stride`?',
             'It keeps starting windows after one already reached the end, making redundant '
             'trailing windows that hold nothing new.',
             reviews=('blind_example',)),
        Card('Why measure chunk size in tokens, not characters?',
             "The model's context and the embedding model count tokens. 500 characters of code, "
             "tables or emoji can cost far more tokens than 500 characters of English prose.",
             reviews=('overflow_at_500',)),
    ],
    "04": [
        Card('Table atomicity: what is the rule?',
             'A table that fits is one chunk, kept whole with its heading path; its rows are '
             'never severed from their header.'),
        Card('Which other block in a README deserves the same care as a table?',
             'A code fence: cut mid-function and neither half runs or explains anything. Keep '
             'fences atomic.'),
        Card('What counts as a markdown table line?',
             'A pipe row, with or without leading and trailing pipes, including the delimiter row '
             'such as |---|:--:|.'),
        Card('How do you check a table chunk is self-sufficient?',
             'Ask: could a model answer the question from this chunk alone? The header, the row '
             'and the section name must all be in it.'),
        Card('Overlap or better boundaries: which fixes a rule cut from its amount cleanly?',
             "Boundaries at sentence ends and sections (on hard-wrapped prose, '. ' before '\\n' "
             "in the separators). Overlap only patches a cut after it was made, at a storage "
             "cost.",
             reviews=('fix_for_torn_rule',)),
        Card('Why stamp source, heading path and offsets at chunk time?',
             'Only the chunker still knows where a piece came from. Once it is a loose string, '
             'equal texts from different sections cannot be told apart.',
             reviews=('why_chunk_time',)),
    ],
    "05": [
        Card('The one question to ask of any chunk when judging a chunker on a real document?',
             'Could a model answer a question from this chunk alone?'),
        Card('Which strategy should win on a README with headings, and what if it does not?',
             "Structure-aware, because the author's headings are the natural boundaries; if it "
             "loses, explain the surprise (e.g. giant sections, or no headings at all)."),
        Card('In what unit do you write chunk-size defaults on a decision card, and why?',
             'Tokens, because the embedding model and the context window budget tokens.'),
        Card('Name the three chunk-time rules.',
             'Stamp metadata (source, heading path, position, version); keep tables (and code '
             'fences) atomic or repeat the header; prefix each chunk with its heading path.'),
        Card('Retrieval keeps missing facts. What is the first debugging move?',
             'Show me your chunks: look at the chunks for the failing query. Is the answer cut, '
             'severed, blurred in a huge chunk, or a row without its header? No embedding upgrade '
             'repairs a bad cut.'),
        Card('Roughly how many embedding calls does semantic chunking make at ingest, against '
             'structure-aware chunking?',
             "On this course's three documents, 5× to 20× (assignment 6 measures it and says why)."),
        Card('Why is a table row that lost its header nearly useless to a model?',
             'Bare numbers do not say what they measure: only the header row tells which column '
             'is which (and in what unit).',
             reviews=('apac_alone_enough',)),
        Card('A table too big for one chunk: how is it split?',
             'By row groups, with the header row (and its delimiter row) repeated at the top of '
             'every group; every data row appears exactly once, in order.',
             reviews=('row_without_header_possible',)),
    ],
    "06": [
        Card('Semantic chunking in one sentence?',
             'Embed every sentence, compare each with the next, and cut where the similarity of '
             'neighbours drops below a threshold: where the topic probably changed.'),
        Card('What do semantic chunks lose that structure-aware chunks keep?',
             "The heading path: 'Late reports need VP sign-off.' does not name its section. Stamp "
             "metadata at chunk time anyway."),
        Card('You change the similarity threshold after launch. What follows?',
             'A re-chunk, so re-embed and re-index everything: chunks and vectors must stay in '
             'lockstep.'),
        Card("Why are bigger chunks not 'safer'?",
             'Many topics share one vector, so the chunk matches everything vaguely and precision '
             'drops; retrieve small and deliver big is the real fix.',
             reviews=('KNOWLEDGE',)),
        Card('What does the idf in a TF-IDF vector weigh high, and what low?',
             'High: terms few sentences use. Low: terms many sentences use, so shared common '
             'words count for little.'),
        Card("Why does the expense policy's similarity curve sit at 0 under bag-of-words vectors?",
             'Neighbouring rules share no words at all (a purchase limit and a subscription '
             'rule), so their TF-IDF cosine is 0: word overlap is a weak judge of "same topic".'),
    ],
}
