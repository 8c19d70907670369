"""``python -m anchormem``: the ``anchormem`` command under the distribution's own name.

The code lives in the top-level packages ``server``, ``store`` and ``anchors``
(adr/0001); this package only forwards to the console script's entry point.
"""
