// Raw REST requests the SDKs do not make but other clients and tools do: metadata levels, $format, Prefer,
// verbs and If-Match forms, trailing slashes, key validation, signing variants and error bodies.
import { createHmac } from "node:crypto";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { accountKey, accountName, endpoint, newTable, raw } from "./support.mjs";

const JSON_TYPE = { "Content-Type": "application/json" };
const NOMETA = { Accept: "application/json;odata=nometadata" };
const MINIMAL = { Accept: "application/json;odata=minimalmetadata" };
const FULL = { Accept: "application/json;odata=fullmetadata" };

describe("raw REST", () => {
  let client;
  let table;
  before(async () => {
    client = await newTable("rest");
    table = client.tableName;
  });
  after(async () => {
    await client.deleteTable();
  });

  const entityPath = (pk, rk) =>
    `${table}(PartitionKey='${encodeURIComponent(pk.replace(/'/g, "''"))}',RowKey='${encodeURIComponent(rk.replace(/'/g, "''"))}')`;
  const insert = (entity, headers = {}) =>
    raw("POST", table, { headers: { ...JSON_TYPE, ...MINIMAL, ...headers }, body: JSON.stringify(entity) });

  test("insert answers 201 with the entity, ETag and Location; Prefer return-no-content answers 204", async () => {
    const created = await insert({ PartitionKey: "ins", RowKey: "a", n: 1 });
    assert.equal(created.status, 201);
    assert.equal(created.json.n, 1);
    assert.equal(created.json["odata.etag"], created.headers.get("etag"));
    assert.equal(created.headers.get("location"), `${endpoint}/${table}(PartitionKey='ins',RowKey='a')`);
    assert.equal(created.headers.get("preference-applied"), null);
    const quiet = await insert({ PartitionKey: "ins", RowKey: "b" }, { Prefer: "return-no-content" });
    assert.equal(quiet.status, 204);
    assert.equal(quiet.text, "");
    assert.equal(quiet.headers.get("preference-applied"), "return-no-content");
    assert.ok(quiet.headers.get("etag"));
    assert.equal(quiet.headers.get("dataserviceid") ?? quiet.headers.get("location"), `${endpoint}/${table}(PartitionKey='ins',RowKey='b')`);
    const loud = await insert({ PartitionKey: "ins", RowKey: "c" }, { Prefer: "return-content" });
    assert.equal(loud.status, 201);
    assert.equal(loud.headers.get("preference-applied"), "return-content");
  });

  test("entity GET in the three metadata levels", async () => {
    await insert({
      PartitionKey: "meta", RowKey: "O'Neil", s: "x", i: 7, d: 1.5, b: true,
      big: "9007199254740993", "big@odata.type": "Edm.Int64", when: "2020-01-01T00:00:00Z", "when@odata.type": "Edm.DateTime",
    });
    const path = entityPath("meta", "O'Neil");
    const none = await raw("GET", path, { headers: NOMETA });
    assert.equal(none.status, 200);
    assert.deepEqual(Object.keys(none.json).filter((k) => k.includes("odata")), []);
    assert.equal(none.json.big, "9007199254740993");
    assert.ok(none.headers.get("etag"));
    const minimal = await raw("GET", path, { headers: MINIMAL });
    assert.equal(minimal.json["odata.metadata"], `${endpoint}/$metadata#${table}/@Element`);
    assert.equal(minimal.json["big@odata.type"], "Edm.Int64");
    assert.equal(minimal.json["when@odata.type"], "Edm.DateTime");
    assert.equal(minimal.json["i@odata.type"], undefined);
    assert.equal(minimal.json["Timestamp@odata.type"], undefined);
    const full = await raw("GET", path, { headers: FULL });
    assert.equal(full.json["odata.type"], `${accountName}.${table}`);
    assert.equal(full.json["odata.id"], `${endpoint}/${table}(PartitionKey='meta',RowKey='O''Neil')`);
    assert.equal(full.json["odata.editLink"], `${table}(PartitionKey='meta',RowKey='O''Neil')`);
    // as Azure answers (recorded): no annotation for what JSON tells by itself
    assert.equal(full.json["i@odata.type"], undefined);
    assert.equal(full.json["d@odata.type"], undefined);
    assert.equal(full.json["b@odata.type"], undefined);
    assert.equal(full.json["big@odata.type"], "Edm.Int64");
    assert.equal(full.json["Timestamp@odata.type"], "Edm.DateTime");
    assert.equal(full.json["s@odata.type"], undefined);
  });

  test("$format overrides Accept, and plain application/json means minimal metadata", async () => {
    await insert({ PartitionKey: "fmt", RowKey: "1" });
    const format = await raw("GET", `${entityPath("fmt", "1")}?$format=application%2Fjson%3Bodata%3Dnometadata`, { headers: FULL });
    assert.equal(format.json["odata.metadata"], undefined);
    const plain = await raw("GET", entityPath("fmt", "1"), { headers: { Accept: "application/json" } });
    assert.ok(plain.json["odata.metadata"]);
    assert.ok(plain.json["odata.etag"]);
  });

  test("the .NET query shape: $format, $top and an empty $filter", async () => {
    await insert({ PartitionKey: "dotnetq", RowKey: "1" });
    const response = await raw("GET", `${table}()?$format=application%2Fjson%3Bodata%3Dminimalmetadata&$top=20&$filter=`, {
      headers: { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2020-12-06" },
    });
    assert.equal(response.status, 200, response.text);
    assert.ok(response.json.value.length >= 1);
    assert.ok(response.json["odata.metadata"]);
  });

  test("$select with spaces after commas, and system properties", async () => {
    await insert({ PartitionKey: "sel", RowKey: "1", a: 1, b: 2, c: 3 });
    const response = await raw("GET", `${table}()?$filter=${encodeURIComponent("PartitionKey eq 'sel'")}&$select=${encodeURIComponent("a, c,RowKey")}`, {
      headers: NOMETA,
    });
    assert.equal(response.status, 200, response.text);
    const [entity] = response.json.value;
    assert.equal(entity.a, 1);
    assert.equal(entity.c, 3);
    assert.equal(entity.RowKey, "1");
    assert.equal(entity.b, undefined);
  });

  test("query results at nometadata carry no odata keys; at minimal each entity has its etag", async () => {
    await insert({ PartitionKey: "qmeta", RowKey: "1", big: "5", "big@odata.type": "Edm.Int64" });
    const filter = encodeURIComponent("PartitionKey eq 'qmeta'");
    const none = await raw("GET", `${table}()?$filter=${filter}`, { headers: NOMETA });
    assert.deepEqual(Object.keys(none.json), ["value"]);
    assert.deepEqual(Object.keys(none.json.value[0]).filter((k) => k.includes("odata")), []);
    const minimal = await raw("GET", `${table}?$filter=${filter}`, { headers: MINIMAL });
    assert.equal(minimal.json["odata.metadata"], `${endpoint}/$metadata#${table}`);
    assert.ok(minimal.json.value[0]["odata.etag"]);
    assert.equal(minimal.json.value[0]["big@odata.type"], "Edm.Int64");
  });

  test("the If-Match matrix for PUT, PATCH, MERGE and DELETE", async () => {
    const path = entityPath("ifmatch", "a");
    const created = await raw("PUT", path, { headers: JSON_TYPE, body: JSON.stringify({ v: "blank" }) });
    assert.equal(created.status, 204);
    const oldEtag = created.headers.get("etag");
    let etag = oldEtag;
    const cases = [
      ["PUT", "*", 204], ["PUT", "old", 412], ["PUT", "new", 204], ["PUT", null, 204],
      ["PATCH", "*", 204], ["PATCH", "old", 412], ["PATCH", "new", 204], ["PATCH", null, 204],
      ["MERGE", "*", 204], ["MERGE", "old", 412], ["MERGE", "new", 204], ["MERGE", null, 204],
    ];
    for (const [method, ifMatch, status] of cases) {
      const headers = { ...JSON_TYPE };
      if (ifMatch !== null) {
        headers["If-Match"] = ifMatch === "old" ? oldEtag : ifMatch === "new" ? etag : ifMatch;
      }
      const response = await raw(method, path, { headers, body: JSON.stringify({ v: `${method} ${ifMatch}` }) });
      assert.equal(response.status, status, `${method} If-Match ${ifMatch}: ${response.text}`);
      if (status === 204) {
        etag = response.headers.get("etag");
      } else {
        assert.equal(response.json["odata.error"].code, "UpdateConditionNotSatisfied");
      }
    }
    assert.equal((await raw("DELETE", path, { headers: { "If-Match": oldEtag } })).status, 412);
    assert.equal((await raw("DELETE", path, { headers: { "If-Match": etag } })).status, 204);
    const missing = await raw("PATCH", path, { headers: { ...JSON_TYPE, "If-Match": "*" }, body: "{}" });
    assert.equal(missing.status, 404);
    assert.equal(missing.json["odata.error"].code, "ResourceNotFound");
  });

  test("POST with X-HTTP-Method tunnels MERGE, PUT and DELETE", async () => {
    await insert({ PartitionKey: "tunnel", RowKey: "1", a: 1 });
    const path = entityPath("tunnel", "1");
    const merge = await raw("POST", path, { headers: { ...JSON_TYPE, "X-HTTP-Method": "MERGE", "If-Match": "*" }, body: JSON.stringify({ b: 2 }) });
    assert.equal(merge.status, 204, merge.text);
    const got = await raw("GET", path, { headers: NOMETA });
    assert.equal(got.json.a, 1);
    assert.equal(got.json.b, 2);
    const put = await raw("POST", path, { headers: { ...JSON_TYPE, "X-HTTP-Method": "PUT", "If-Match": "*" }, body: JSON.stringify({ c: 3 }) });
    assert.equal(put.status, 204);
    assert.equal((await raw("GET", path, { headers: NOMETA })).json.a, undefined);
    const del = await raw("POST", path, { headers: { "X-HTTP-Method": "DELETE", "If-Match": "*" } });
    assert.equal(del.status, 204);
    const wrong = await raw("POST", path, { headers: { ...JSON_TYPE, "X-HTTP-Method": "FROB" }, body: "{}" });
    assert.equal(wrong.status, 400);
  });

  test("trailing slashes after Tables, the table and $batch are tolerated", async () => {
    const name = `slash${Date.now()}`;
    const created = await raw("POST", "Tables/", { headers: { ...JSON_TYPE, ...NOMETA }, body: JSON.stringify({ TableName: name }) });
    assert.equal(created.status, 201, created.text);
    const inserted = await raw("POST", `${name}/`, { headers: { ...JSON_TYPE, ...NOMETA }, body: JSON.stringify({ PartitionKey: "a", RowKey: "b" }) });
    assert.equal(inserted.status, 201, inserted.text);
    const listed = await raw("GET", "Tables/", { headers: NOMETA });
    assert.equal(listed.status, 200, listed.text);
    assert.equal((await raw("DELETE", `Tables('${name}')`)).status, 204);
  });

  test("GET Tables('name') returns the table, 404 when missing", async () => {
    const found = await raw("GET", `Tables('${table}')`, { headers: MINIMAL });
    assert.equal(found.status, 200);
    assert.equal(found.json.TableName, table);
    const missing = await raw("GET", "Tables('nosuchtable12345')", { headers: MINIMAL });
    assert.equal(missing.status, 404);
  });

  test("keys with forbidden characters are 400 on insert (all control characters included)", async () => {
    const bad = ["doNotAllow/ForwardSlash", "doNotAllow#hash", "doNotAllow?questionmark", "doNotAllow\\backslash"];
    for (let c = 0x00; c <= 0x1f; c++) {
      bad.push(`ctl-${String.fromCharCode(c)}-x`);
    }
    for (let c = 0x7f; c <= 0x9f; c++) {
      bad.push(`ctl-${String.fromCharCode(c)}-x`);
    }
    for (const key of bad) {
      for (const entity of [{ PartitionKey: key, RowKey: "1" }, { PartitionKey: "1", RowKey: key }]) {
        const response = await insert(entity);
        assert.equal(response.status, 400, `${JSON.stringify(entity)}: ${response.status}`);
      }
    }
  });

  test("malformed request bodies are 400 InvalidInput, never 500", async () => {
    for (const body of ["{", "[]", "\"text\"", "{\"PartitionKey\":\"a\",\"RowKey\":\"b\",\"x\":{\"nested\":1}}",
      "{\"PartitionKey\":\"a\",\"RowKey\":\"b\",\"x\":[1,2]}", "{\"PartitionKey\":1,\"RowKey\":\"b\"}",
      "{\"PartitionKey\":\"a\",\"RowKey\":\"b\",\"x\":\"1\",\"x@odata.type\":\"Edm.Unknown\"}"]) {
      const response = await raw("POST", table, { headers: { ...JSON_TYPE, ...MINIMAL }, body });
      assert.equal(response.status, 400, `${body}: ${response.status} ${response.text}`);
    }
    const duplicate = await raw("POST", table, { headers: { ...JSON_TYPE, ...MINIMAL }, body: "{\"PartitionKey\":\"a\",\"RowKey\":\"dup\",\"x\":1,\"x\":2}" });
    assert.equal(duplicate.status, 400);
    const noKeys = await raw("POST", table, { headers: { ...JSON_TYPE, ...MINIMAL }, body: "{\"x\":1}" });
    assert.equal(noKeys.status, 400);
  });

  test("a value that does not fit its type: InvalidInput with Azure's message first", async () => {
    const response = await insert({ PartitionKey: "typed", RowKey: "1", when: "", "when@odata.type": "Edm.DateTime" });
    assert.equal(response.status, 400);
    assert.equal(response.json["odata.error"].code, "InvalidInput");
    assert.match(response.json["odata.error"].message.value, /^An error occurred while processing this request\./);
  });

  test("a DateTime without a zone is read as UTC", async () => {
    await insert({ PartitionKey: "typed", RowKey: "utc", when: "2012-01-02T23:00:00", "when@odata.type": "Edm.DateTime" });
    const response = await raw("GET", entityPath("typed", "utc"), { headers: MINIMAL });
    assert.equal(response.json.when, "2012-01-02T23:00:00Z");
  });

  test("odata annotations and Timestamp in a request body are ignored", async () => {
    const response = await insert({
      "odata.metadata": "whatever", "odata.etag": "W/\"x\"", PartitionKey: "echo", RowKey: "1",
      Timestamp: "2001-01-01T00:00:00Z", "Timestamp@odata.type": "Edm.DateTime", v: 1,
    });
    assert.equal(response.status, 201, response.text);
    assert.notEqual(response.json.Timestamp, "2001-01-01T00:00:00Z");
  });

  test("x-ms-client-request-id is echoed and every response has a request id and version", async () => {
    const response = await raw("GET", `Tables('${table}')`, { headers: { ...MINIMAL, "x-ms-client-request-id": "my-id-42" } });
    assert.equal(response.headers.get("x-ms-client-request-id"), "my-id-42");
    assert.ok(response.headers.get("x-ms-request-id"));
    assert.equal(response.headers.get("x-ms-version"), "2019-02-02");
  });

  test("errors carry the OData error body with RequestId and Time, and the x-ms-error-code header", async () => {
    const response = await raw("GET", entityPath("none", "none"), { headers: NOMETA });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get("x-ms-error-code"), "ResourceNotFound");
    const error = response.json["odata.error"];
    assert.equal(error.code, "ResourceNotFound");
    assert.match(error.message.value, /^The specified resource does not exist\.\nRequestId:[^\n]+\nTime:\d{4}-\d\d-\d\dT/);
    assert.equal(error.message.lang, "en-US");
  });

  test("Shared Key (not Lite) signatures are accepted", async () => {
    const date = new Date().toUTCString();
    const url = new URL(`${endpoint}/Tables`);
    const stringToSign = `GET\n\n\n${date}\n/${accountName}${url.pathname}`;
    const signature = createHmac("sha256", Buffer.from(accountKey, "base64")).update(stringToSign, "utf8").digest("base64");
    const response = await raw("GET", "Tables", {
      sign: false,
      headers: { ...NOMETA, "x-ms-date": date, Authorization: `SharedKey ${accountName}:${signature}` },
    });
    assert.equal(response.status, 200, response.text);
  });

  test("a signature over the %27-encoded path matches a request sent with literal quotes", async () => {
    await insert({ PartitionKey: "quote", RowKey: "1" });
    const path = `${table}(PartitionKey='quote',RowKey='1')`;
    const date = new Date().toUTCString();
    const pathname = new URL(`${endpoint}/${path}`).pathname.replace(/'/g, "%27");
    const signature = createHmac("sha256", Buffer.from(accountKey, "base64"))
      .update(`${date}\n/${accountName}${pathname}`, "utf8").digest("base64");
    const response = await raw("GET", path, {
      sign: false,
      headers: { ...NOMETA, "x-ms-date": date, Authorization: `SharedKeyLite ${accountName}:${signature}` },
    });
    assert.equal(response.status, 200, response.text);
  });

  test("unauthenticated and badly signed requests are refused", async () => {
    const anonymous = await raw("GET", "Tables", { sign: false, headers: NOMETA });
    assert.ok([401, 403].includes(anonymous.status), String(anonymous.status));
    const wrong = await raw("GET", "Tables", {
      sign: false, headers: { ...NOMETA, "x-ms-date": new Date().toUTCString(), Authorization: `SharedKeyLite ${accountName}:AAAA` },
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.headers.get("x-ms-error-code"), "AuthenticationFailed");
  });

  test("an entity path that encodes a slash in a key is 400", async () => {
    const response = await raw("GET", `${table}(PartitionKey='a%2Fb',RowKey='c')`, { headers: NOMETA });
    assert.equal(response.status, 400);
  });

  test("key literals with spaces around the predicate and unicode keys in the URL", async () => {
    await insert({ PartitionKey: "ünï cödé", RowKey: "行 1" });
    const response = await raw("GET", entityPath("ünï cödé", "行 1"), { headers: NOMETA });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.json.RowKey, "行 1");
  });

  test("Query Tables pages with NextTableName", async () => {
    const prefix = `nt${Date.now()}`;
    for (let i = 0; i < 3; i++) {
      await raw("POST", "Tables", { headers: { ...JSON_TYPE, ...NOMETA, Prefer: "return-no-content" }, body: JSON.stringify({ TableName: `${prefix}x${i}` }) });
    }
    const filter = encodeURIComponent(`TableName ge '${prefix}' and TableName lt '${prefix}z'`);
    const first = await raw("GET", `Tables?$top=2&$filter=${filter}`, { headers: NOMETA });
    assert.equal(first.json.value.length, 2);
    const next = first.headers.get("x-ms-continuation-nexttablename");
    assert.ok(next);
    const second = await raw("GET", `Tables?$top=2&$filter=${filter}&NextTableName=${encodeURIComponent(next)}`, { headers: NOMETA });
    assert.deepEqual(second.json.value.map((t) => t.TableName), [`${prefix}x2`]);
    assert.equal(second.headers.get("x-ms-continuation-nexttablename"), null);
    for (let i = 0; i < 3; i++) {
      await raw("DELETE", `Tables('${prefix}x${i}')`);
    }
  });
});
