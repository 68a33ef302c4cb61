#!/bin/sh
# A compiler that never finishes: the MCP test's cancellation and timeout
# cases pass it as analyze's "compiler". It writes its pid (exec keeps it) to
# $REGSCOPE_MCP_PIDFILE, so the test can check that no compiler survives.
[ -n "$REGSCOPE_MCP_PIDFILE" ] && echo $$ >> "$REGSCOPE_MCP_PIDFILE"
exec sleep 120
