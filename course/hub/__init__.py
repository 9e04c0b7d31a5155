"""The class server: one machine, JupyterHub, one Unix account per person, a private exchange.

``roster`` reads who is in the class; ``accounts`` makes their Unix accounts and groups;
``exchange_folders`` lays out the exchange on disk with its permissions; ``private_exchange``
is the nbgrader exchange that uses that layout, named by the settings ``nbgrader_settings``
writes; ``course_folder`` closes the instructor's folders to students; ``hub_config`` is
JupyterHub's configuration; ``paths`` where the software and state live; ``cli`` is
``python -m course hub …``. ``proxy/`` pins the proxy for npm. docs/class-server.md says how
the pieces fit.
"""
