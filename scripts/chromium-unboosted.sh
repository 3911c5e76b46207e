#!/bin/sh
# Starts Chromium without the capability to raise its threads' priority (CAP_SYS_NICE).
# As root, Chromium puts its renderer main thread, compositor and IO threads at nice -8; on a
# shared 2-core machine they then take the cores before the server under measurement, which a
# visitor's browser, on a device of its own, never does (bench/README.md, issue 22).
# The binary comes from CHROMIUM_UNBOOSTED_BINARY (e2e/browser.ts sets it).
exec setpriv --inh-caps=-sys_nice --bounding-set=-sys_nice "$CHROMIUM_UNBOOSTED_BINARY" "$@"
