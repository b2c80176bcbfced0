"""The specification as a static site (``horserace site DIR``): every rule, fixture,
register entry and glossary term on a page or an anchor of its own, cross-linked, with
the layouts of the layout and play fixtures drawn after every step, a search box, and
the JSON export beside it.

A room above :mod:`horserace.reports` (it draws with the reports' SVG) and below the
CLI.  :mod:`~horserace.site.catalogue` gathers what the documents and the corpus say of
each other, :mod:`~horserace.site.markdown` renders the documents (markdown-it-py, the
``[site]`` extra) with every ID linked, the ``*_pages`` modules write the pages, and
:mod:`~horserace.site.build` writes the whole site.
"""

__all__: list[str] = []  # nothing here: import the submodules
