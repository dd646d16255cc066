# Writing the predicted run as an OTF2 archive: the events as they are predicted, the
# recorded archive's definitions copied.  (OTF2's flags and libraries: Makefile.am.)
libpzreplay_la_SOURCES += trace_out.c trace_out.h trace_defs.c trace_defs.h \
	trace_defs_copied.h trace_complaints.c trace_complaints.h
