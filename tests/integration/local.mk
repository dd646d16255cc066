# Integration tests: included by tests/Makefile.am.
