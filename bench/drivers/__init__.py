"""Programs the benchmarks run as subprocesses (each measures one process from its start)."""
