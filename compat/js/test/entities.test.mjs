// Entity operations through @azure/data-tables: every EDM type, update/upsert modes, concurrency, keys, limits.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { accountName, expectError, newTable, raw, tableClient, uniqueTableName } from "./support.mjs";

describe("entities", () => {
  let client;
  before(async () => {
    client = await newTable("ent");
  });
  after(async () => {
    await client.deleteTable();
  });

  test("every EDM type round-trips with type conversion", async () => {
    const when = new Date("2024-02-29T12:34:56.789Z");
    const bytes = new Uint8Array([0, 1, 2, 127, 128, 254, 255]);
    await client.createEntity({
      partitionKey: "types",
      rowKey: "all",
      text: "héllo wörld ✓ 𝄞",
      int32: 42,
      negative: -2147483648,
      double: 3.25,
      integralDouble: { value: 5, type: "Double" },
      int64: { value: "9007199254740993", type: "Int64" },
      bigint: -9223372036854775808n,
      guid: { value: "d3365292-0f33-4e13-9ec6-2ea5053c32ad", type: "Guid" },
      date: when,
      binary: bytes,
      yes: true,
      no: false,
      emptyText: "",
    });
    const entity = await client.getEntity("types", "all");
    assert.equal(entity.text, "héllo wörld ✓ 𝄞");
    assert.equal(entity.int32, 42);
    assert.equal(entity.negative, -2147483648);
    assert.equal(entity.double, 3.25);
    assert.equal(entity.integralDouble, 5);
    assert.equal(entity.int64, 9007199254740993n);
    assert.equal(entity.bigint, -9223372036854775808n);
    assert.deepEqual(entity.guid, { value: "d3365292-0f33-4e13-9ec6-2ea5053c32ad", type: "Guid" });
    assert.equal(entity.date.toISOString(), when.toISOString());
    assert.deepEqual(new Uint8Array(entity.binary), bytes);
    assert.equal(entity.yes, true);
    assert.equal(entity.no, false);
    assert.equal(entity.emptyText, "");
    assert.match(entity.etag, /^W\/"datetime'.+'"$/);
    assert.ok(entity.timestamp);
  });

  test("types are reported exactly with disableTypeConversion", async () => {
    await client.createEntity({
      partitionKey: "types",
      rowKey: "exact",
      integralDouble: { value: 5, type: "Double" },
      int32AsString: { value: "-31", type: "Int32" },
      boolAsString: { value: "true", type: "Boolean" },
      precise: { value: "2023-01-01T23:00:00.1234567Z", type: "DateTime" },
      noZone: { value: "2023-01-01T23:00:00", type: "DateTime" },
      int64: { value: "-12345", type: "Int64" },
      binary: { value: "AAECAw==", type: "Binary" },
    });
    const entity = await client.getEntity("types", "exact", { disableTypeConversion: true });
    // Without annotations (minimal metadata) the SDK infers Int32 for 5.0 and 5 alike; the raw JSON tells them apart.
    assert.deepEqual(entity.int32AsString, { value: "-31", type: "Int32" });
    assert.deepEqual(entity.boolAsString, { value: "true", type: "Boolean" });
    const full = await raw("GET", `${client.tableName}(PartitionKey='types',RowKey='exact')`, {
      headers: { Accept: "application/json;odata=fullmetadata" },
    });
    assert.equal(full.status, 200);
    assert.match(full.text, /"integralDouble":5\.0[,}]/);
    // as Azure answers (recorded): full metadata annotates only what JSON cannot tell, and Timestamp
    assert.equal(full.json["integralDouble@odata.type"], undefined);
    assert.equal(full.json["int32AsString@odata.type"], undefined);
    assert.equal(full.json.int32AsString, -31);
    assert.equal(full.json["boolAsString@odata.type"], undefined);
    assert.equal(full.json.boolAsString, true);
    assert.equal(full.json["Timestamp@odata.type"], "Edm.DateTime");
    assert.equal(full.json["odata.type"], `${accountName}.${client.tableName}`);
    assert.equal(full.json["odata.editLink"], `${client.tableName}(PartitionKey='types',RowKey='exact')`);
    assert.deepEqual(entity.precise, { value: "2023-01-01T23:00:00.1234567Z", type: "DateTime" });
    assert.deepEqual(entity.noZone, { value: "2023-01-01T23:00:00Z", type: "DateTime" });
    assert.deepEqual(entity.int64, { value: "-12345", type: "Int64" });
    assert.deepEqual(entity.binary, { value: "AAECAw==", type: "Binary" });
  });

  test("Boolean values sent as strings are read in any case", async () => {
    await client.createEntity({
      partitionKey: "types", rowKey: "boolcase",
      upper: { value: "TRUE", type: "Boolean" }, mixed: { value: "False", type: "Boolean" },
    });
    const entity = await client.getEntity("types", "boolcase");
    assert.equal(entity.upper, true);
    assert.equal(entity.mixed, false);
  });

  test("special doubles: NaN, Infinity, -Infinity and -0", async () => {
    await client.createEntity({
      partitionKey: "types",
      rowKey: "special",
      nan: { value: "NaN", type: "Double" },
      inf: { value: "Infinity", type: "Double" },
      ninf: { value: "-Infinity", type: "Double" },
      negZero: { value: -0, type: "Double" },
      tiny: 5e-324,
      huge: 1.7976931348623157e308,
    });
    const entity = await client.getEntity("types", "special", { disableTypeConversion: true });
    assert.deepEqual(entity.nan, { value: "NaN", type: "Double" });
    assert.deepEqual(entity.inf, { value: "Infinity", type: "Double" });
    assert.deepEqual(entity.ninf, { value: "-Infinity", type: "Double" });
    assert.equal(Number(entity.negZero.value), 0);
    assert.equal(Number(entity.tiny.value), 5e-324);
    assert.equal(Number(entity.huge.value), 1.7976931348623157e308);
    const full = await raw("GET", `${client.tableName}(PartitionKey='types',RowKey='special')`, {
      headers: { Accept: "application/json;odata=fullmetadata" },
    });
    assert.equal(full.json["nan@odata.type"], "Edm.Double");
    assert.equal(full.json["negZero@odata.type"], undefined);
    assert.equal(full.json["tiny@odata.type"], undefined);
  });

  test("a value that does not parse as its declared type is 400", async () => {
    for (const bad of [
      { value: "-3.1", type: "Int32" },
      { value: "2147483648", type: "Int32" },
      { value: "abc", type: "Int64" },
      { value: "not-a-guid", type: "Guid" },
      { value: "yesterday", type: "DateTime" },
      { value: "maybe", type: "Boolean" },
    ]) {
      await expectError(client.createEntity({ partitionKey: "bad", rowKey: bad.type, prop: bad }), 400);
    }
  });

  test("null properties are not stored", async () => {
    await client.createEntity({ partitionKey: "null", rowKey: "1", gone: null, kept: "yes" });
    const entity = await client.getEntity("null", "1");
    assert.equal("gone" in entity, false);
    assert.equal(entity.kept, "yes");
  });

  test("createEntity on an existing entity is 409 EntityAlreadyExists", async () => {
    await client.createEntity({ partitionKey: "dup", rowKey: "1" });
    await expectError(client.createEntity({ partitionKey: "dup", rowKey: "1" }), 409, "EntityAlreadyExists");
  });

  test("getEntity of a missing entity is 404 ResourceNotFound", async () => {
    await expectError(client.getEntity("nobody", "nothing"), 404, "ResourceNotFound");
  });

  test("entity operations on a missing table are 404 TableNotFound", async () => {
    const missing = tableClient(uniqueTableName("missing"));
    for (const call of [
      () => missing.createEntity({ partitionKey: "a", rowKey: "b" }),
      () => missing.getEntity("a", "b"),
      () => missing.upsertEntity({ partitionKey: "a", rowKey: "b" }, "Merge"),
      () => missing.upsertEntity({ partitionKey: "a", rowKey: "b" }, "Replace"),
      () => missing.deleteEntity("a", "b"),
      () => missing.listEntities().next(),
    ]) {
      await expectError(call(), 404, "TableNotFound");
    }
  });

  test("updateEntity Replace removes properties absent from the new entity; Merge keeps them", async () => {
    await client.createEntity({ partitionKey: "upd", rowKey: "1", a: "a", b: 2 });
    await client.updateEntity({ partitionKey: "upd", rowKey: "1", b: 3, c: true }, "Merge");
    assert.deepEqual(pick(await client.getEntity("upd", "1"), "a", "b", "c"), { a: "a", b: 3, c: true });
    await client.updateEntity({ partitionKey: "upd", rowKey: "1", d: "only" }, "Replace");
    assert.deepEqual(pick(await client.getEntity("upd", "1"), "a", "b", "c", "d"), { d: "only" });
  });

  test("Merge changes a property's type", async () => {
    await client.createEntity({ partitionKey: "upd", rowKey: "retype", value: "text" });
    await client.updateEntity({ partitionKey: "upd", rowKey: "retype", value: { value: "7", type: "Int64" } }, "Merge");
    assert.equal((await client.getEntity("upd", "retype")).value, 7n);
  });

  test("updateEntity with a stale etag is 412 UpdateConditionNotSatisfied; with the current one it succeeds", async () => {
    const created = await client.createEntity({ partitionKey: "etag", rowKey: "1", n: 1 });
    const updated = await client.updateEntity({ partitionKey: "etag", rowKey: "1", n: 2 }, "Replace", { etag: created.etag });
    assert.notEqual(updated.etag, created.etag);
    for (const mode of ["Replace", "Merge"]) {
      await expectError(client.updateEntity({ partitionKey: "etag", rowKey: "1", n: 3 }, mode, { etag: created.etag }), 412, "UpdateConditionNotSatisfied");
    }
    const merged = await client.updateEntity({ partitionKey: "etag", rowKey: "1", m: 1 }, "Merge", { etag: updated.etag });
    assert.equal((await client.getEntity("etag", "1")).etag, merged.etag);
  });

  test("updateEntity with etag * succeeds on any version and is 404 when the entity is missing", async () => {
    await client.createEntity({ partitionKey: "star", rowKey: "1", n: 1 });
    await client.updateEntity({ partitionKey: "star", rowKey: "1", n: 2 }, "Replace", { etag: "*" });
    await client.updateEntity({ partitionKey: "star", rowKey: "1", m: 3 }, "Merge", { etag: "*" });
    assert.deepEqual(pick(await client.getEntity("star", "1"), "n", "m"), { n: 2, m: 3 });
    for (const mode of ["Replace", "Merge"]) {
      await expectError(client.updateEntity({ partitionKey: "star", rowKey: "absent" }, mode), 404, "ResourceNotFound");
    }
  });

  test("a malformed etag is 400", async () => {
    await client.createEntity({ partitionKey: "etag", rowKey: "malformed" });
    await expectError(client.updateEntity({ partitionKey: "etag", rowKey: "malformed" }, "Merge", { etag: "blah" }), 400);
    await expectError(client.deleteEntity("etag", "malformed", { etag: "blah" }), 400);
  });

  test("any weak etag is well formed (412 when stale); strong, bare or broken etags are 400", async () => {
    const created = await client.createEntity({ partitionKey: "etagsyntax", rowKey: "x" });
    for (const etag of ['W/"wrong"', `W/"datetime'2015-01-01T23%3A14%3A33.4980000Z'"`, 'w/"wrong"',
      `w/"datetime'2015-01-01T23%3A14%3A33.4980000Z'"`]) {
      await expectError(client.updateEntity({ partitionKey: "etagsyntax", rowKey: "x" }, "Replace", { etag }), 412,
        "UpdateConditionNotSatisfied");
    }
    for (const etag of ['"wrong"', `"datetime'2015-01-01T23%3A14%3A33.4980000Z'"`, "wrong",
      "datetime'2015-01-01T23%3A14%3A33.4980000Z'", '"', "MalformedEtag"]) {
      await expectError(client.updateEntity({ partitionKey: "etagsyntax", rowKey: "x" }, "Replace", { etag }), 400, "InvalidInput");
      await expectError(client.deleteEntity("etagsyntax", "x", { etag }), 400, "InvalidInput");
    }
    assert.equal((await client.getEntity("etagsyntax", "x")).etag, created.etag);
  });

  test("Int64 accepts the signed 64-bit range and rejects beyond it", async () => {
    await client.createEntity({ partitionKey: "int64", rowKey: "min", v: { value: "-9223372036854775808", type: "Int64" } });
    await client.createEntity({ partitionKey: "int64", rowKey: "max", v: { value: "9223372036854775807", type: "Int64" } });
    assert.equal((await client.getEntity("int64", "max")).v, 9223372036854775807n);
    await expectError(client.createEntity({ partitionKey: "int64", rowKey: "ulong", v: { value: "18446744073709551615", type: "Int64" } }),
      400, "InvalidInput");
  });

  test("upsertEntity inserts then merges or replaces", async () => {
    await client.upsertEntity({ partitionKey: "ups", rowKey: "m", a: 1 }, "Merge");
    await client.upsertEntity({ partitionKey: "ups", rowKey: "m", b: 2 }, "Merge");
    assert.deepEqual(pick(await client.getEntity("ups", "m"), "a", "b"), { a: 1, b: 2 });
    await client.upsertEntity({ partitionKey: "ups", rowKey: "r", a: 1 }, "Replace");
    await client.upsertEntity({ partitionKey: "ups", rowKey: "r", b: 2 }, "Replace");
    assert.deepEqual(pick(await client.getEntity("ups", "r"), "a", "b"), { b: 2 });
  });

  test("every write produces a new etag, even many in a row", async () => {
    const etags = new Set();
    etags.add((await client.createEntity({ partitionKey: "many", rowKey: "1", n: 0 })).etag);
    for (let i = 1; i <= 40; i++) {
      const mode = i % 2 ? "Merge" : "Replace";
      etags.add((await client.updateEntity({ partitionKey: "many", rowKey: "1", n: i }, mode)).etag);
    }
    assert.equal(etags.size, 41);
  });

  test("deleteEntity: stale etag is 412, missing entity is 404, then it is gone", async () => {
    const created = await client.createEntity({ partitionKey: "del", rowKey: "1" });
    await client.updateEntity({ partitionKey: "del", rowKey: "1", x: 1 }, "Merge");
    await expectError(client.deleteEntity("del", "1", { etag: created.etag }), 412, "UpdateConditionNotSatisfied");
    await client.deleteEntity("del", "1");
    await expectError(client.deleteEntity("del", "1"), 404, "ResourceNotFound");
    await expectError(client.getEntity("del", "1"), 404, "ResourceNotFound");
  });

  test("keys with quotes, spaces, unicode, percent, plus, comma, ampersand and more round-trip", async () => {
    const keys = [
      "O'Brien", "''", "a'b''c'", "with space", "  leading", "trailing  ", "ünïcödé ✓", "emoji 😀", "100%", "%2B",
      "%percent", "a+b", "+", "comma,key", "amp&er=sand", "semi;colon", "paren(s)", "star*", "colon:x", "tilde~",
      "back`tick", "dollar$", "at@", "bang!", "%D1%88%D0%B5", "ümlaut Übermütige Kühe", "中文键", "\"quoted\"",
      "[brackets]", "{braces}", "<angle>", "pipe|", "caret^",
    ];
    for (const key of keys) {
      await client.createEntity({ partitionKey: key, rowKey: key, value: key });
      const entity = await client.getEntity(key, key);
      assert.equal(entity.partitionKey, key);
      assert.equal(entity.rowKey, key);
      assert.equal(entity.value, key);
      await client.updateEntity({ partitionKey: key, rowKey: key, value: `${key}!` }, "Merge");
      await client.upsertEntity({ partitionKey: key, rowKey: key, other: 1 }, "Replace");
      assert.equal((await client.getEntity(key, key)).other, 1, key);
      await client.deleteEntity(key, key);
    }
  });

  test("empty partition and row keys are legal", async () => {
    await client.createEntity({ partitionKey: "", rowKey: "", v: 1 });
    await client.createEntity({ partitionKey: "emptyrow", rowKey: "", v: 2 });
    assert.equal((await client.getEntity("", "")).v, 1);
    assert.equal((await client.getEntity("emptyrow", "")).v, 2);
    await client.updateEntity({ partitionKey: "", rowKey: "", v: 3 }, "Merge");
    assert.equal((await client.getEntity("", "")).v, 3);
    await client.deleteEntity("", "");
    await client.deleteEntity("emptyrow", "");
  });

  test("keys with forbidden characters are rejected with 400", async () => {
    for (const key of ["slash/key", "back\\slash", "hash#key", "question?key", "tab\tkey", "nul\u0000key", "del\u007fkey", "c1\u0085key"]) {
      await expectError(client.createEntity({ partitionKey: "forbidden", rowKey: key }), 400);
      await expectError(client.createEntity({ partitionKey: key, rowKey: "r" }), 400);
    }
  });

  test("property names: underscore start is fine, invalid names are 400 PropertyNameInvalid", async () => {
    await client.createEntity({ partitionKey: "names", rowKey: "ok", _under: 1, camelCase9: 2, "ünï": 3 });
    const entity = await client.getEntity("names", "ok");
    assert.equal(entity._under, 1);
    assert.equal(entity.camelCase9, 2);
    for (const name of ["9lives", "has-dash", "has space", "dot.ted"]) {
      await expectError(client.createEntity({ partitionKey: "names", rowKey: name, [name]: 1 }), 400, "PropertyNameInvalid");
    }
    await expectError(client.createEntity({ partitionKey: "names", rowKey: "long", ["p".repeat(256)]: 1 }), 400, "PropertyNameTooLong");
  });

  test("strings up to 32K characters and binaries up to 64 KiB are accepted; one more is PropertyValueTooLarge", async () => {
    await client.createEntity({ partitionKey: "limits", rowKey: "string", s: "a".repeat(32 * 1024) });
    assert.equal((await client.getEntity("limits", "string")).s.length, 32 * 1024);
    await client.createEntity({ partitionKey: "limits", rowKey: "binary", b: new Uint8Array(64 * 1024) });
    assert.equal((await client.getEntity("limits", "binary")).b.length, 64 * 1024);
    await expectError(client.createEntity({ partitionKey: "limits", rowKey: "s+1", s: "a".repeat(32 * 1024 + 1) }), 400, "PropertyValueTooLarge");
    await expectError(client.createEntity({ partitionKey: "limits", rowKey: "b+1", b: new Uint8Array(64 * 1024 + 1) }), 400, "PropertyValueTooLarge");
    for (const mode of ["Merge", "Replace"]) {
      await expectError(client.updateEntity({ partitionKey: "limits", rowKey: "string", s: "b".repeat(32 * 1024 + 1) }, mode), 400, "PropertyValueTooLarge");
    }
  });

  test("an entity near 1 MiB is accepted; above it is EntityTooLarge", async () => {
    const near = { partitionKey: "limits", rowKey: "near" };
    for (let i = 0; i < 15; i++) {
      near[`b${i}`] = new Uint8Array(64 * 1024 - 100);
    }
    await client.createEntity(near);
    assert.equal((await client.getEntity("limits", "near")).b14.length, 64 * 1024 - 100);
    const over = { partitionKey: "limits", rowKey: "over" };
    for (let i = 0; i < 17; i++) {
      over[`b${i}`] = new Uint8Array(64 * 1024);
    }
    await expectError(client.createEntity(over), 400, "EntityTooLarge");
  });

  test("252 user properties are accepted; 253 are TooManyProperties", async () => {
    const max = { partitionKey: "limits", rowKey: "props" };
    for (let i = 0; i < 252; i++) {
      max[`p${i}`] = i;
    }
    await client.createEntity(max);
    assert.equal((await client.getEntity("limits", "props")).p251, 251);
    await expectError(client.createEntity({ ...max, rowKey: "props+1", p252: 252 }), 400, "TooManyProperties");
  });

  test("a request body over 4 MiB is 413 RequestBodyTooLarge", async () => {
    const huge = { partitionKey: "limits", rowKey: "body" };
    for (let i = 0; i < 130; i++) {
      huge[`s${i}`] = "x".repeat(32 * 1024);
    }
    await expectError(client.createEntity(huge), 413, "RequestBodyTooLarge");
  });

  test("keys up to 1 KiB are accepted", async () => {
    const key = "k".repeat(512);
    await client.createEntity({ partitionKey: key, rowKey: key });
    assert.equal((await client.getEntity(key, key)).rowKey, key);
  });
});

function pick(entity, ...names) {
  const picked = {};
  for (const name of names) {
    if (name in entity) {
      picked[name] = entity[name];
    }
  }
  return picked;
}
