-- Version 3: what the admin traces and quality report count. `rc_len` is
-- SQLite's `coalesce(json_array_length(x), 0)`: 0 for anything but an array.
CREATE FUNCTION rc_len(j jsonb) RETURNS INTEGER LANGUAGE SQL IMMUTABLE AS $$
    SELECT CASE jsonb_typeof(j) WHEN 'array' THEN jsonb_array_length(j) ELSE 0 END
$$;
