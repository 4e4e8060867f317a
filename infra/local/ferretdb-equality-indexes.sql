-- Equality lookups that use an index, on the local FerretDB (docs/adr/0063). Local stand-in only:
-- production runs MongoDB, whose own indexes serve these queries.
--
-- FerretDB 1.x pushes an equality filter down as `_jsonb -> 'field' @> value`, but the index it makes
-- for a MongoDB index is a btree on `(_jsonb -> 'field')`, which `@>` cannot use: every lookup by
-- request id read the whole table (25 ms a lookup at 5 800 requests, growing with the table). For
-- every top-level field of every index FerretDB makes, this adds a GIN index on the same expression,
-- which `@>` does use (PostgreSQL plans FerretDB's statements with their values, so the field name is
-- known). Fields inside arrays or subdocuments (`lines.product_id`) are skipped: FerretDB does not push
-- those down. Run by infra/local/ferretdb.sh as the administrator on every start; idempotent.

CREATE SCHEMA IF NOT EXISTS tuber_local;
GRANT USAGE ON SCHEMA tuber_local TO PUBLIC;

-- The GIN siblings of one FerretDB index: one per top-level field it covers. Runs as the role that
-- made the index (the service that owns the table), so the sibling belongs to the same owner.
CREATE OR REPLACE FUNCTION tuber_local.add_equality_indexes(target oid) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  definition text := pg_get_indexdef(target);
  tbl regclass;
  field text;
  made integer := 0;
BEGIN
  SELECT indrelid::regclass INTO tbl FROM pg_index WHERE indexrelid = target;
  IF tbl IS NULL OR definition NOT LIKE '%USING btree%(_jsonb -> %' THEN
    RETURN 0;
  END IF;
  -- `(_jsonb -> 'field'::text)` not followed by ` ->` (a nested path); names with a quote are left out.
  FOR field IN SELECT (regexp_matches(definition, '\(_jsonb -> ''([^'']+)''::text\)(?! ->)', 'g'))[1] LOOP
    EXECUTE format(
      'CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((_jsonb -> %L))',
      'tuber_eq_' || substr(md5(tbl::oid::text || ':' || field), 1, 20), tbl, field);
    made := made + 1;
  END LOOP;
  RETURN made;
END $$;

CREATE OR REPLACE FUNCTION tuber_local.equality_indexes_on_create() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  made record;
BEGIN
  FOR made IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    -- Our own siblings fire this trigger too.
    CONTINUE WHEN (SELECT relname FROM pg_class WHERE oid = made.objid) LIKE 'tuber\_eq\_%';
    BEGIN
      PERFORM tuber_local.add_equality_indexes(made.objid);
    EXCEPTION WHEN others THEN
      -- Never fail the index FerretDB asked for: without the sibling the lookup is slower, not wrong.
      RAISE WARNING 'tuber: no GIN sibling for index %: %', made.objid::regclass, SQLERRM;
    END;
  END LOOP;
END $$;

DROP EVENT TRIGGER IF EXISTS tuber_equality_indexes;
CREATE EVENT TRIGGER tuber_equality_indexes ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION tuber_local.equality_indexes_on_create();

-- Indexes made before the trigger existed (an older checkout's data).
SELECT count(*) AS siblings_checked
FROM (
  SELECT tuber_local.add_equality_indexes(i.indexrelid)
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indexrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'tuber_local')
    AND c.relname NOT LIKE 'tuber\_eq\_%'
) AS made;
