-- ADR 0059: the daily play count is history in daily_counters (name 'play'), added with each
-- recorded play from now on. The plays recorded so far (those whose suite still exists) are
-- counted once here, by China day (UTC+8, as chinaDaySql).
INSERT INTO "daily_counters" ("day", "name", "count")
SELECT (("played_at" AT TIME ZONE 'UTC') + interval '8 hours')::date, 'play', count(*)
FROM "play_events"
GROUP BY 1
ON CONFLICT ("day", "name") DO NOTHING;
