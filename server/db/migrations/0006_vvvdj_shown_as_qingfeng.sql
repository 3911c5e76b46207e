-- Custom migration: vvvdj is 清风DJ音乐网 and is shown as 清风DJ (SOURCES.md, the charts panel,
-- the source registry). Only the name migration 0002 wrote is replaced: a name an admin chose stays.
UPDATE "source_sites" SET "name" = '清风DJ', "updated_at" = now() WHERE "code" = 'vvvdj' AND "name" = 'VVVDJ';
