# What the installed shared libraries export, against the allow-lists of tests/symbols/.
AM_TESTS_ENVIRONMENT += PZ_TOP_BUILDDIR='$(abs_top_builddir)'; export PZ_TOP_BUILDDIR;
TESTS += symbols.sh
EXTRA_DIST += symbols.sh symbols/libprognoz.txt symbols/libprognoz-comsys.txt \
	symbols/libprognoz-openmpi.txt
