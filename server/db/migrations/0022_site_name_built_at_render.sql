-- Custom migration (ADR 0066): the site's name is built from the settings when a page answers,
-- never stored in copies. A category's SEO title holds only its own part; the page appends
-- " - {站点标题}" from the site settings when it answers, so renaming the site renames every page.
-- Titles that end with the old built-in site name (the demo seed wrote "… - DJ搜索引擎网") lose
-- that ending; a title an admin wrote without it stays as it is.
UPDATE "categories" SET "seo_title" = btrim(regexp_replace("seo_title", '\s*[-_|－—]\s*DJ搜索引擎网\s*$', ''))
WHERE "seo_title" ~ '[-_|－—]\s*DJ搜索引擎网\s*$';
--> statement-breakpoint
-- The demo seed's descriptions began with the site's name: they now say 本站 (this site).
UPDATE "categories" SET "seo_description" = '本站' || substr("seo_description", length('DJ搜索引擎网') + 1)
WHERE "seo_description" LIKE 'DJ搜索引擎网收录%';
--> statement-breakpoint
-- The footer's "© DJ搜索引擎网" line is now built from the site title when shown: a stored footer
-- that ends with that line (the default text saved from the form) loses it.
UPDATE "app_settings" SET "value" = jsonb_set("value", '{footer}', to_jsonb(regexp_replace("value"->>'footer', '\n?\s*©\s*DJ搜索引擎网\s*$', '')))
WHERE "key" = 'site' AND jsonb_typeof("value"->'footer') = 'string' AND "value"->>'footer' ~ '©\s*DJ搜索引擎网\s*$';
