"""Reports: the result stream of a conformance run and every format made from it
(terminal, JSON, JUnit XML, Markdown, HTML with SVG drawings), and the text of the other
commands' results."""

__all__: list[str] = []  # nothing here: import the submodules
