-- Writing entities from SQL, as the Table API writes them: trestle_insert_entity, trestle_upsert_entity,
-- trestle_update_entity, trestle_merge_entity and trestle_delete_entity take an entity's properties in the
-- API's own JSON form ({"Name": value, "Name@odata.type": "Edm.Int64", ...}), check them as the service does,
-- store them exactly as Trestle's PropertyCodec does (dev.trestle.store.internal.codec), give the entity a new
-- version (its Timestamp and ETag), and answer its ETag. A repeatable migration: `trestle migrate` (or `serve`)
-- installs these functions and re-applies this file whenever it changes.
--
-- Errors are raised with SQLSTATE 'TR' followed by the HTTP status the API answers (TR400, TR404, TR409, TR412,
-- TR413) and a message that starts with the Azure error code, e.g. "EntityAlreadyExists: ...".
--
-- Differences from the API, all stricter: a string cannot hold U+0000 (PostgreSQL's json cannot), and property
-- names with characters beyond ASCII are checked against XML's name ranges only (the API also applies C#'s
-- identifier classes).

-- Text as Trestle stores keys and strings on PostgreSQL (UnitOrderText.encode; trestle_text() decodes it): the
-- UTF-16 units from U+D800 up shifted by 0x800, U+0001 escaped, so that "C" order is Azure's UTF-16 order.
CREATE OR REPLACE FUNCTION trestle_stored_text(plain text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  result text := '';
  ch text;
  cp int;
BEGIN
  IF plain !~ '[\u0001\ue000-\U0010ffff]' THEN
    RETURN plain;
  END IF;
  FOREACH ch IN ARRAY string_to_array(plain, NULL) LOOP
    cp := ascii(ch);
    IF cp = 1 THEN
      result := result || chr(1) || chr(2);
    ELSIF cp < 57344 THEN                      -- below U+E000 (PostgreSQL text holds no surrogates)
      result := result || ch;
    ELSIF cp < 65536 THEN
      result := result || chr(cp + 2048);
    ELSE                                       -- a supplementary character: its two surrogate units
      result := result || chr(55296 + ((cp - 65536) >> 10) + 2048) || chr(56320 + ((cp - 65536) & 1023) + 2048);
    END IF;
  END LOOP;
  RETURN result;
END
$$;

-- The length of text in UTF-16 code units, what Azure's limits count.
CREATE OR REPLACE FUNCTION trestle_utf16_length(plain text) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT length(plain) + length(regexp_replace(plain, '[^\U00010000-\U0010ffff]', '', 'g'))
$$;

-- Raises a Table API error: SQLSTATE TR + HTTP status, message "Code: text".
CREATE OR REPLACE FUNCTION trestle_raise(status int, code text, message text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION USING ERRCODE = 'TR' || status, MESSAGE = code || ': ' || message;
END
$$;

-- A double as Java's Double.toString writes it (Trestle's stored form of Edm.Double): from PostgreSQL's
-- shortest text, plain between 10^-3 and 10^7, else d.dddE±n, at least one fractional digit.
CREATE OR REPLACE FUNCTION trestle_double_text(value float8) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET extra_float_digits = 1 AS $$
DECLARE
  shortest text;
  mantissa text;
  exponent int := 0;
  digits text;
  point int;
  lead int;
  candidate text;
  magnitude float8 := abs(value);
  sign text := CASE WHEN value < 0 OR value::text = '-0' THEN '-' ELSE '' END;
BEGIN
  IF value = 'NaN'::float8 THEN
    RETURN 'NaN';
  ELSIF value = 'Infinity'::float8 THEN
    RETURN 'Infinity';
  ELSIF value = '-Infinity'::float8 THEN
    RETURN '-Infinity';
  ELSIF magnitude = 0 THEN
    RETURN sign || '0.0';
  END IF;
  shortest := magnitude::text;
  FOR pass IN 1..2 LOOP
    mantissa := split_part(shortest, 'e', 1);
    exponent := CASE WHEN position('e' IN shortest) > 0 THEN split_part(shortest, 'e', 2)::int ELSE 0 END;
    digits := split_part(mantissa, '.', 1) || split_part(mantissa, '.', 2);
    point := length(split_part(mantissa, '.', 1)) + exponent;   -- digits before the decimal point
    lead := length(digits) - length(ltrim(digits, '0'));
    digits := rtrim(ltrim(digits, '0'), '0');
    point := point - lead;
    -- PostgreSQL leaves out a decimal exactly halfway to the next double, which reads back as this one when
    -- its last bit is even (1e23): Java takes it when it is shorter
    WHILE pass = 1 AND length(digits) > 1 LOOP
      candidate := CASE
        WHEN trestle_reads_as(left(digits, -1) || 'e' || (point - length(digits) + 1), magnitude)
          THEN left(digits, -1)
        WHEN trestle_reads_as((left(digits, -1)::numeric + 1)::text || 'e' || (point - length(digits) + 1), magnitude)
          THEN (left(digits, -1)::numeric + 1)::text END;
      EXIT WHEN candidate IS NULL;
      IF length(candidate) = length(digits) THEN      -- 99..9 + 1 carried into a new leading digit
        point := point + 1;
      END IF;
      digits := rtrim(candidate, '0');
    END LOOP;
    -- Java writes at least two digits, the closest two that read back: only a subnormal has a choice
    EXIT WHEN pass = 2 OR length(digits) > 1 OR magnitude >= 2.2250738585072014e-308;
    shortest := trestle_subnormal_digits(magnitude, point);
  END LOOP;
  IF magnitude >= 1e-3 AND magnitude < 1e7 THEN
    IF point > 0 THEN
      RETURN sign || rpad(substr(digits, 1, point), point, '0') || '.'
          || coalesce(nullif(substr(digits, point + 1), ''), '0');
    END IF;
    RETURN sign || '0.' || repeat('0', -point) || digits;
  END IF;
  RETURN sign || substr(digits, 1, 1) || '.' || coalesce(nullif(substr(digits, 2), ''), '0')
      || 'E' || (point - 1);
END
$$;

-- Whether decimal text reads back as the double (false beyond the range of doubles).
CREATE OR REPLACE FUNCTION trestle_reads_as(candidate text, magnitude float8) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  RETURN candidate::float8 = magnitude;
EXCEPTION WHEN numeric_value_out_of_range THEN
  RETURN false;
END
$$;

-- The two-digit decimal Java's Double.toString gives a subnormal whose shortest form has one digit (the double
-- is about 10^(point-1)), as text k e n: of the two-digit decimals that read back as the double, the closest to
-- its exact value (an integer multiple of 2^-1074), compared in exact integers scaled by 2^1074 * 10^(3-point).
CREATE OR REPLACE FUNCTION trestle_subnormal_digits(magnitude float8, point int) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  units numeric := round((magnitude / 4.9406564584124654e-324)::numeric);  -- the double in units of 2^-1074
  exact numeric := units * power(10::numeric, 3 - point);
  two numeric := power(2::numeric, 1074);
  best text;
  best_distance numeric;
  distance numeric;
BEGIN
  FOR decade IN 0..1 LOOP                     -- k * 10^(point-3), then k * 10^(point-2)
    FOR k IN 10..99 LOOP
      IF trestle_reads_as(k::text || 'e' || (point - 3 + decade), magnitude) THEN
        distance := abs(k * power(10::numeric, decade) * two - exact);
        IF best_distance IS NULL OR distance < best_distance THEN
          best := k::text || 'e' || (point - 3 + decade);
          best_distance := distance;
        END IF;
      END IF;
    END LOOP;
  END LOOP;
  RETURN best;
END
$$;

-- The ticks (100 ns since 1970-01-01 UTC) of an Edm.DateTime in the API's JSON form: ISO 8601, seconds and
-- fraction optional, no zone means UTC, truncated to 100 ns (EdmDateTime.parse); null when it is not one.
-- A time outside 1601-01-01 to 9999-12-31 raises OutOfRangeInput.
CREATE OR REPLACE FUNCTION trestle_datetime_ticks(value text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  f text[] := regexp_match(value,
      '^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{0,9}))?)?(Z|[+-]\d{2}:\d{2})?$');
  seconds bigint;
  offset_seconds int := 0;
  ticks numeric;
BEGIN
  IF f IS NULL OR f[2]::int NOT BETWEEN 1 AND 12 OR f[4]::int > 23 OR f[5]::int > 59
      OR coalesce(f[6], '0')::int > 59 THEN
    RETURN NULL;
  END IF;
  BEGIN
    seconds := extract(epoch FROM make_timestamp(f[1]::int, f[2]::int, f[3]::int, f[4]::int, f[5]::int, 0))::bigint;
  EXCEPTION WHEN datetime_field_overflow OR invalid_datetime_format THEN
    RETURN NULL;
  END;
  IF f[8] IS NOT NULL AND f[8] <> 'Z' THEN
    offset_seconds := (substr(f[8], 2, 2)::int * 3600 + substr(f[8], 5, 2)::int * 60)
        * CASE WHEN left(f[8], 1) = '-' THEN -1 ELSE 1 END;
  END IF;
  ticks := (seconds + coalesce(f[6], '0')::int - offset_seconds)::numeric * 10000000
      + rpad(coalesce(f[7], ''), 7, '0')::numeric;
  IF ticks < -116444736000000000 OR ticks > 2534023007999999999 THEN
    PERFORM trestle_raise(400, 'OutOfRangeInput', format('The date-time value ''%s'' is out of range.', value));
  END IF;
  RETURN ticks::bigint;
END
$$;

-- Whether a property name is valid: at most 255 characters, a C# identifier and an XML name (PropertyNames;
-- beyond ASCII only XML's ranges are checked).
CREATE OR REPLACE FUNCTION trestle_valid_property_name(name text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT name ~ ('^[A-Za-z_\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d'
                 || '\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff]'
                 || '[A-Za-z_0-9\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c-\u200d'
                 || '\u203f-\u2040\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd'
                 || '\U00010000-\U000effff]*$')
$$;

-- A key checked as the service checks PartitionKey and RowKey (EntityValidator.validateKey).
CREATE OR REPLACE FUNCTION trestle_check_key(key_name text, value text) RETURNS void
LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  IF value IS NULL THEN
    PERFORM trestle_raise(400, 'PropertiesNeedValue',
        format('The values are not specified for all properties in the entity: %s.', key_name));
  ELSIF trestle_utf16_length(value) > 512 THEN
    PERFORM trestle_raise(400, 'KeyValueTooLarge',
        format('The ''%s'' value is larger than the maximum allowed size (1 KiB).', key_name));
  ELSIF value ~ '[/\\#?\u0001-\u001f\u007f-\u009f]' THEN
    PERFORM trestle_raise(400, 'OutOfRangeInput',
        format('The ''%s'' parameter of value ''%s'' is out of range.', key_name, value));
  END IF;
END
$$;

-- An entity's properties in the API's JSON form as Trestle stores them, {"Name": [tag, value, position]},
-- each value checked and typed as the service reads it (annotations, inference, limits): the one place that
-- reads the JSON form in SQL. The size of keys and properties is checked against 1 MiB (EntitySize).
CREATE OR REPLACE FUNCTION trestle_stored_properties(properties json, partition_key text, row_key text)
RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  item record;
  names text[] := '{}';
  types jsonb := '{}';
  stored jsonb := '{}';
  place int := 0;
  name text;
  edm text;
  kind text;
  raw text;
  tag text;
  value jsonb;
  ticks bigint;
  bytes bytea;
  size bigint := 4 + 2 * trestle_utf16_length(partition_key) + 2 * trestle_utf16_length(row_key);
BEGIN
  IF properties IS NULL THEN
    RETURN stored;
  END IF;
  IF json_typeof(properties) <> 'object' THEN
    PERFORM trestle_raise(400, 'InvalidInput', 'The properties are not one JSON object.');
  END IF;
  -- annotations first: they type the value they name wherever they stand
  FOR item IN SELECT * FROM json_each(properties) LOOP
    IF item.key LIKE '%@odata.type' THEN
      IF json_typeof(item.value) <> 'string' THEN
        PERFORM trestle_raise(400, 'InvalidInput',
            format('The type annotation of property ''%s'' is not a string.', split_part(item.key, '@', 1)));
      END IF;
      types := types || jsonb_build_object(split_part(item.key, '@', 1), item.value #>> '{}');
    END IF;
  END LOOP;
  FOR item IN SELECT * FROM json_each(properties) LOOP
    name := item.key;
    kind := json_typeof(item.value);
    CONTINUE WHEN position('@' IN name) > 0 OR name LIKE 'odata.%' OR name = 'Timestamp' OR kind = 'null';
    IF name = ANY (names) THEN
      PERFORM trestle_raise(400, 'InvalidInput', format('The property ''%s'' is given twice.', name));
    END IF;
    names := names || name;
    IF kind IN ('object', 'array') THEN
      PERFORM trestle_raise(400, 'InvalidInput',
          format('The property ''%s'' holds an %s; values are scalars.', name, kind));
    END IF;
    raw := item.value #>> '{}';
    IF name IN ('PartitionKey', 'RowKey') THEN
      IF raw IS DISTINCT FROM (CASE name WHEN 'PartitionKey' THEN partition_key ELSE row_key END) THEN
        PERFORM trestle_raise(400, 'InvalidInput',
            format('The properties hold a %s other than the one given.', name));
      END IF;
      CONTINUE;
    END IF;
    IF trestle_utf16_length(name) > 255 THEN
      PERFORM trestle_raise(400, 'PropertyNameTooLong', 'The property name exceeds the maximum allowed length (255).');
    ELSIF NOT trestle_valid_property_name(name) THEN
      PERFORM trestle_raise(400, 'PropertyNameInvalid', format('The property name ''%s'' is invalid.', name));
    END IF;
    edm := types ->> name;
    IF edm IS NULL THEN                        -- inferred as the service does (JsonScalars.inferred)
      edm := CASE kind
        WHEN 'string' THEN 'Edm.String'
        WHEN 'boolean' THEN 'Edm.Boolean'
        ELSE CASE WHEN raw ~ '^-?[0-9]+$' AND raw::numeric BETWEEN -2147483648 AND 2147483647
                  THEN 'Edm.Int32' ELSE 'Edm.Double' END
      END;
    END IF;
    value := NULL;
    CASE edm
      WHEN 'Edm.String' THEN
        tag := 's';
        IF kind = 'string' THEN
          IF trestle_utf16_length(raw) > 32768 THEN
            PERFORM trestle_raise(400, 'PropertyValueTooLarge',
                format('The property ''%s'' is larger than the maximum allowed size (64 KiB).', name));
          END IF;
          value := to_jsonb(trestle_stored_text(raw));
          size := size + 4 + 2 * trestle_utf16_length(raw);
        END IF;
      WHEN 'Edm.Int32', 'Edm.Int64' THEN
        tag := CASE edm WHEN 'Edm.Int32' THEN 'i' ELSE 'l' END;
        IF kind IN ('number', 'string') AND raw ~ '^-?[0-9]+$'
            AND raw::numeric BETWEEN (CASE tag WHEN 'i' THEN -2147483648 ELSE -9223372036854775808 END)
                                 AND (CASE tag WHEN 'i' THEN 2147483647 ELSE 9223372036854775807 END) THEN
          value := to_jsonb(raw::numeric::bigint);
          size := size + CASE tag WHEN 'i' THEN 4 ELSE 8 END;
        END IF;
      WHEN 'Edm.Double' THEN
        tag := 'd';
        IF kind = 'number' OR (kind = 'string' AND (raw IN ('NaN', 'Infinity', 'INF', '-Infinity', '-INF')
            OR raw ~ '^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$')) THEN
          BEGIN
            value := to_jsonb(trestle_double_text(replace(raw, 'INF', 'Infinity')::float8));
          EXCEPTION WHEN numeric_value_out_of_range THEN   -- Java reads beyond the range as infinite
            value := to_jsonb(CASE WHEN raw ~* 'e-' THEN '0.0' ELSE 'Infinity' END);
            IF left(raw, 1) = '-' THEN
              value := to_jsonb('-' || (value #>> '{}'));
            END IF;
          END;
          size := size + 8;
        END IF;
      WHEN 'Edm.Boolean' THEN
        tag := 'b';
        IF kind = 'boolean' OR (kind = 'string' AND lower(raw) IN ('true', 'false')) THEN
          value := to_jsonb(lower(raw)::boolean);
          size := size + 1;
        END IF;
      WHEN 'Edm.DateTime' THEN
        tag := 't';
        IF kind = 'string' THEN
          ticks := trestle_datetime_ticks(raw);
          IF ticks IS NOT NULL THEN
            value := to_jsonb(ticks);
            size := size + 8;
          END IF;
        END IF;
      WHEN 'Edm.Guid' THEN
        tag := 'g';
        IF kind = 'string' AND raw ~ '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' THEN
          value := to_jsonb(lower(raw));
          size := size + 16;
        END IF;
      WHEN 'Edm.Binary' THEN
        tag := 'x';
        IF kind = 'string'
            AND raw ~ '^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$' THEN
          bytes := decode(rpad(rtrim(raw, '='), (length(rtrim(raw, '=')) + 3) / 4 * 4, '='), 'base64');
          IF length(bytes) > 65536 THEN
            PERFORM trestle_raise(400, 'PropertyValueTooLarge',
                format('The property ''%s'' is larger than the maximum allowed size (64 KiB).', name));
          END IF;
          value := to_jsonb(encode(bytes, 'hex'));
          size := size + 4 + length(bytes);
        END IF;
      ELSE
        PERFORM trestle_raise(400, 'InvalidInput', format('Unsupported property type ''%s''.', edm));
    END CASE;
    IF value IS NULL THEN
      PERFORM trestle_raise(400, 'InvalidInput',
          format('The value of property ''%s'' is not a valid %s: %s.', name, edm, left(item.value::text, 60)));
    END IF;
    size := size + 8 + 2 * trestle_utf16_length(name);
    stored := stored || jsonb_build_object(name, jsonb_build_array(tag, value, place));
    place := place + 1;
  END LOOP;
  IF place > 252 THEN
    PERFORM trestle_raise(400, 'TooManyProperties', format(
        'The entity has more properties than allowed: %s including PartitionKey, RowKey and Timestamp, at most 255.',
        place + 3));
  ELSIF size > 1048576 THEN
    PERFORM trestle_raise(413, 'EntityTooLarge',
        format('The entity is larger than the maximum allowed size (1 MiB): %s bytes.', size));
  END IF;
  RETURN stored;
END
$$;

-- The service's weak ETag of a version: W/"datetime'2021-09-21T01%3A04%3A07.0980562Z'" (ETags.of).
CREATE OR REPLACE FUNCTION trestle_etag(ticks bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT 'W/"datetime''' || replace(to_char((to_timestamp(0) + ((ticks - ((ticks % 10) + 10) % 10) / 10)
      * interval '1 microsecond') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')
      || (((ticks % 10) + 10) % 10)::text || 'Z', ':', '%3A') || '''"'
$$;

-- The one write: operation is insert, upsert_replace, upsert_merge, update, merge or delete (TableOperation.Kind),
-- if_match '*' (or null) or an ETag. Decided as SingleWrite decides, on the entity's row locked: an expired
-- entity (time to live) is absent; a new version is the later of the clock and the stored version plus one,
-- and within a session always after the one before (VersionClock). The change feed's triggers see the write.
CREATE OR REPLACE FUNCTION trestle_write_entity(operation text, p_account text, p_table text, p_partition_key text,
    p_row_key text, p_properties json, if_match text) RETURNS text
LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  tid bigint;
  ttl boolean;
  ttl_default bigint;
  pk text;
  rk text;
  given jsonb;
  old_ticks bigint;
  old_properties jsonb;
  alive boolean;
  now_ticks bigint := (extract(epoch FROM clock_timestamp()) * 10000000)::bigint;
  version bigint;
  expected bigint;
  etag_time text;
BEGIN
  IF operation NOT IN ('insert', 'upsert_replace', 'upsert_merge', 'update', 'merge', 'delete') THEN
    PERFORM trestle_raise(400, 'InvalidInput', format('Unknown operation ''%s''.', operation));
  END IF;
  PERFORM trestle_check_key('PartitionKey', p_partition_key);
  PERFORM trestle_check_key('RowKey', p_row_key);
  IF operation <> 'delete' THEN
    given := trestle_stored_properties(p_properties, p_partition_key, p_row_key);
  END IF;
  -- If-Match: any, one of our ETags (its ticks), or another weak ETag, which matches no version
  IF if_match IS NOT NULL AND btrim(if_match) <> '*' THEN
    etag_time := substring(btrim(if_match) FROM '^W/"datetime''(.+)''"$');
    IF etag_time IS NOT NULL THEN
      expected := trestle_datetime_ticks(replace(replace(etag_time, '%3A', ':'), '%3a', ':'));
    END IF;
    IF expected IS NULL THEN
      IF btrim(if_match) !~ '^[Ww]/"[^"]+"$' THEN
        PERFORM trestle_raise(400, 'InvalidInput', format('The etag value ''%s'' is not valid.', if_match));
      END IF;
      expected := -9223372036854775808;
    END IF;
  END IF;
  SELECT id, ttl_enabled, default_ttl INTO tid, ttl, ttl_default FROM trestle_table
   WHERE account = p_account AND name_key = lower(p_table);
  IF tid IS NULL THEN
    PERFORM trestle_raise(404, 'TableNotFound', 'The table specified does not exist.');
  END IF;
  pk := trestle_stored_text(p_partition_key);
  rk := trestle_stored_text(p_row_key);
  -- decided again when an insert meets the key of an entity another transaction inserted since the read
  FOR attempt IN 1..3 LOOP
    SELECT ticks, properties INTO old_ticks, old_properties FROM trestle_entity
     WHERE table_id = tid AND partition_key = pk AND row_key = rk FOR UPDATE;
    alive := old_ticks IS NOT NULL AND NOT (ttl AND (CASE
        WHEN old_properties -> 'TrestleExpires' ->> 0 = 't' THEN (old_properties -> 'TrestleExpires' ->> 1)::bigint <= now_ticks
        ELSE ttl_default IS NOT NULL AND old_ticks <= now_ticks - ttl_default * 10000000 END));
    -- the version: after the clock of this session's last write and after the stored one
    version := greatest(now_ticks, coalesce(nullif(current_setting('trestle.last_version', true), '')::bigint + 1, 0),
                        coalesce(old_ticks + 1, 0));
    PERFORM set_config('trestle.last_version', version::text, false);

    IF operation IN ('update', 'merge', 'delete') THEN
      IF NOT alive THEN
        PERFORM trestle_raise(404, 'ResourceNotFound', 'The specified resource does not exist.');
      ELSIF expected IS NOT NULL AND expected <> old_ticks THEN
        PERFORM trestle_raise(412, 'UpdateConditionNotSatisfied', 'The update condition specified in the request was not satisfied.');
      END IF;
    ELSIF operation = 'insert' AND alive THEN
      PERFORM trestle_raise(409, 'EntityAlreadyExists', 'The specified entity already exists.');
    END IF;

    IF operation = 'delete' THEN
      DELETE FROM trestle_entity WHERE table_id = tid AND partition_key = pk AND row_key = rk;
      RETURN NULL;
    END IF;
    IF old_ticks IS NOT NULL AND NOT alive AND operation <> 'upsert_replace' THEN
      -- an expired entity is absent: removed first, as SingleWrite does, so the feed shows a delete and an insert
      DELETE FROM trestle_entity WHERE table_id = tid AND partition_key = pk AND row_key = rk;
      old_ticks := NULL;
    END IF;
    IF operation IN ('merge', 'upsert_merge') AND old_ticks IS NOT NULL THEN
      -- stored properties keep their places, new ones follow in the order given
      SELECT jsonb_object_agg(n, jsonb_build_array(v -> 0, v -> 1, p - 1)) INTO given
        FROM (SELECT n, v, row_number() OVER (ORDER BY o, (v ->> 2)::int) AS p
                FROM (SELECT s.key AS n, coalesce(given -> s.key, s.value) AS v, (s.value ->> 2)::int AS o
                        FROM jsonb_each(old_properties) s
                      UNION ALL
                      SELECT g.key, g.value, 2147483647 FROM jsonb_each(given) g
                       WHERE NOT old_properties ? g.key) m) ordered;
      given := coalesce(given, '{}');
    END IF;
    IF old_ticks IS NULL THEN
      BEGIN
        INSERT INTO trestle_entity (table_id, partition_key, row_key, ticks, properties)
        VALUES (tid, pk, rk, version, given);
      EXCEPTION WHEN unique_violation THEN   -- inserted by another transaction since the read
        IF operation = 'insert' OR attempt = 3 THEN
          PERFORM trestle_raise(409, 'EntityAlreadyExists', 'The specified entity already exists.');
        END IF;
        CONTINUE;                            -- an upsert writes over it
      END;
    ELSE
      UPDATE trestle_entity SET ticks = version, properties = given
       WHERE table_id = tid AND partition_key = pk AND row_key = rk;
    END IF;
    -- the scalar store, where the database has one, in the same transaction; deletes remove it by trigger
    -- (migrations/optional/postgresql-scalar-store.sql)
    IF to_regclass('trestle_entity_scalar') IS NOT NULL THEN
      INSERT INTO trestle_entity_scalar (table_id, partition_key, row_key, scalars, signature)
      VALUES (tid, pk, rk, trestle_scalars(given), trestle_string_signature(given))
      ON CONFLICT ON CONSTRAINT trestle_entity_scalar_pk
      DO UPDATE SET scalars = EXCLUDED.scalars, signature = EXCLUDED.signature;
    END IF;
    RETURN trestle_etag(version);
  END LOOP;
END
$$;

CREATE OR REPLACE FUNCTION trestle_insert_entity(account text, table_name text, partition_key text, row_key text,
    properties json DEFAULT '{}') RETURNS text
LANGUAGE sql AS $$ SELECT trestle_write_entity('insert', $1, $2, $3, $4, $5, NULL) $$;

CREATE OR REPLACE FUNCTION trestle_upsert_entity(account text, table_name text, partition_key text, row_key text,
    properties json DEFAULT '{}', merge boolean DEFAULT false) RETURNS text
LANGUAGE sql AS $$
  SELECT trestle_write_entity(CASE WHEN $6 THEN 'upsert_merge' ELSE 'upsert_replace' END, $1, $2, $3, $4, $5, NULL)
$$;

CREATE OR REPLACE FUNCTION trestle_update_entity(account text, table_name text, partition_key text, row_key text,
    properties json DEFAULT '{}', if_match text DEFAULT '*') RETURNS text
LANGUAGE sql AS $$ SELECT trestle_write_entity('update', $1, $2, $3, $4, $5, $6) $$;

CREATE OR REPLACE FUNCTION trestle_merge_entity(account text, table_name text, partition_key text, row_key text,
    properties json DEFAULT '{}', if_match text DEFAULT '*') RETURNS text
LANGUAGE sql AS $$ SELECT trestle_write_entity('merge', $1, $2, $3, $4, $5, $6) $$;

CREATE OR REPLACE FUNCTION trestle_delete_entity(account text, table_name text, partition_key text, row_key text,
    if_match text DEFAULT '*') RETURNS void
LANGUAGE sql AS $$ SELECT trestle_write_entity('delete', $1, $2, $3, $4, NULL, $5) $$;

COMMENT ON FUNCTION trestle_insert_entity(text, text, text, text, json) IS 'Trestle: inserts an entity as Insert Entity does (properties in the API''s JSON form); answers its ETag. Errors: SQLSTATE TR + HTTP status, message starting with the Azure error code.';
COMMENT ON FUNCTION trestle_upsert_entity(text, text, text, text, json, boolean) IS 'Trestle: Insert Or Replace Entity, or Insert Or Merge Entity when merge; answers the ETag.';
COMMENT ON FUNCTION trestle_update_entity(text, text, text, text, json, text) IS 'Trestle: Update Entity (replaces the properties) of the version if_match names (* for any); answers the new ETag.';
COMMENT ON FUNCTION trestle_merge_entity(text, text, text, text, json, text) IS 'Trestle: Merge Entity (adds and overwrites the given properties) of the version if_match names (* for any); answers the new ETag.';
COMMENT ON FUNCTION trestle_delete_entity(text, text, text, text, text) IS 'Trestle: Delete Entity of the version if_match names (* for any).';
COMMENT ON FUNCTION trestle_write_entity(text, text, text, text, text, json, text) IS 'Trestle: the write behind trestle_insert_entity and the others; operation is insert, upsert_replace, upsert_merge, update, merge or delete.';
COMMENT ON FUNCTION trestle_stored_properties(json, text, text) IS 'Trestle: properties in the API''s JSON form, checked and typed as the service does, in the stored form {"Name": [tag, value, position]}.';
COMMENT ON FUNCTION trestle_stored_text(text) IS 'Trestle: text in the stored order-preserving encoding of keys and strings; trestle_text() decodes it.';
