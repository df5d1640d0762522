"""Runs every test/test_*.py with unittest and ends with one line the Maven test reads:
SUMMARY tests=N failures=F errors=E skipped=S (failures and errors are printed above it)."""
import os
import sys
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "test"))
suite = unittest.defaultTestLoader.discover(os.path.join(here, "test"), pattern="test_*.py")
result = unittest.TextTestRunner(verbosity=2, stream=sys.stdout).run(suite)
print(
    f"SUMMARY tests={result.testsRun} failures={len(result.failures)} "
    f"errors={len(result.errors)} skipped={len(result.skipped)}"
)
sys.exit(0 if result.wasSuccessful() else 1)
