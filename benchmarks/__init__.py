"""anchormem's benchmarks: what the pieces cost, measured on scratch repositories and stores.

Each module is a command (``python -m benchmarks NAME`` runs the same, ``--help`` on each):

* ``benchmarks.latency``: one MCP tool call over stdio as a client sees it, remember and
  recall (verify on) at stores of N memories, beside the floor of a trivial tool;
* ``benchmarks.recall``: the cold and updated fingerprint and in-process recall with
  verification at stores of N memories (``anchormem bench`` runs it);
* ``benchmarks.fingerprint``: fingerprint timings alone, and the serial-vs-pool sweep
  behind ``POOL_THRESHOLD``;
* ``benchmarks.store_sharing``: what sharing one DuckDB file between processes costs, and N
  servers writing to one store at once.
* ``benchmarks.reference_memory``: the MCP reference memory server (npm, installed when it
  runs) driven the way ``store_sharing --clients loop`` drives anchormem, for comparison.

Helpers: ``benchmarks.seed`` (a store seeded with N varied memories, cached),
``benchmarks.floor`` (the trivial server). Scratch repositories and every git call go
through ``experiments.scratch``, the one git runner outside the product (see its docstring
for why it lives there). The benchmarks may import the product and the experiments; the
product imports nothing from here except the ``anchormem bench`` command, which loads
``benchmarks.recall`` when it runs.
"""
