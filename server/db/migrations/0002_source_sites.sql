-- Custom migration: the source sites are reference data the code relies on (chart sites,
-- search channels, collectors), so they exist on every installation, demo catalogue or not.
-- Logos are filled in later (demo seed or admin).
INSERT INTO "source_sites" ("code", "name", "homepage", "sort") VALUES
  ('djuu', 'DJUU', 'https://www.djuu.com', 1),
  ('172minx', '172Mix', 'https://www.172mix.com', 2),
  ('vvvdj', 'VVVDJ', 'https://www.vvvdj.com', 3),
  ('local', '本站', '/', 4)
ON CONFLICT ("code") DO NOTHING;
