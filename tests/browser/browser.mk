# The interactive HTML report in headless chromium, and firefox-esr when present
# (browser/lib.sh, browser/launch.js): browser/report.sh, browser/report.js; the page of
# several machines: browser/machines.sh, browser/machines.js; of 4096 processes:
# browser/processes.sh, browser/processes.js; of a run with MPI-IO and one-sided calls:
# browser/io_rma.sh, browser/io_rma.js (programs/io_rma.c); on several machines:
# browser/io_rma_machines.sh, browser/io_rma_machines.js; what the two share:
# browser/io_rma_page.js.
PZ_IT_TESTS += browser/report.sh browser/machines.sh browser/processes.sh browser/io_rma.sh \
	browser/io_rma_machines.sh
EXTRA_DIST += browser/lib.sh browser/launch.js browser/report.js browser/machines.js \
	browser/processes.js browser/package.json browser/package-lock.json \
	browser/io_rma.sh browser/io_rma.js browser/io_rma_machines.sh browser/io_rma_machines.js \
	browser/io_rma_page.js
check_PROGRAMS += programs/io_rma
programs_io_rma_SOURCES = programs/io_rma.c
programs_io_rma_CPPFLAGS = -I$(top_srcdir)/include $(MPI_CFLAGS)
programs_io_rma_CFLAGS = $(PZ_CFLAGS)
programs_io_rma_LDADD = $(MPI_LIBS)
