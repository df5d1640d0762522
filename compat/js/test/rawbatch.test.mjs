// Raw $batch bodies in the shapes other SDKs and tools send (.NET, Python, Java, Logic Apps, Storage Explorer):
// absolute URLs naming another host, LF-only lines, quoted boundaries, MERGE/PATCH/X-HTTP-Method, If-Match forms,
// per-part Accept levels and $format, Content-ID and Content-Length, a single query outside a change set.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { batchBody, endpoint, newTable, postBatch, raw } from "./support.mjs";

describe("raw batch formats", () => {
  let client;
  let table;
  before(async () => {
    client = await newTable("rawb");
    table = client.tableName;
  });
  after(async () => {
    await client.deleteTable();
  });

  const json = (value) => JSON.stringify(value);
  const insert = (url, entity, headers = []) =>
    [`POST ${url} HTTP/1.1`, "Content-Type: application/json", "Accept: application/json;odata=minimalmetadata",
      ...headers, "", json(entity)].join("\n");
  const keyPath = (pk, rk) => `${table}(PartitionKey='${encodeURIComponent(pk.replace(/'/g, "''"))}',RowKey='${encodeURIComponent(rk.replace(/'/g, "''"))}')`;
  const write = (method, url, entity, headers = []) =>
    [`${method} ${url} HTTP/1.1`, "Content-Type: application/json", "Accept: application/json;odata=minimalmetadata",
      ...headers, "", entity === undefined ? "" : json(entity)].join("\n");

  test("absolute URLs naming another host and port are accepted (only the path counts)", async () => {
    const foreign = `http://127.0.0.1:10002/${endpoint.split("/").pop()}`;
    const response = await postBatch(batchBody([
      insert(`${foreign}/${table}`, { PartitionKey: "host", RowKey: "a" }, ["Prefer: return-no-content"]),
      insert(`https://example.invalid/${endpoint.split("/").pop()}/${table}`, { PartitionKey: "host", RowKey: "b" }),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [204, 201]);
    assert.equal((await client.getEntity("host", "b")).rowKey, "b");
  });

  test("relative URLs with and without the account segment", async () => {
    const account = endpoint.split("/").pop();
    const response = await postBatch(batchBody([
      insert(`/${account}/${table}`, { PartitionKey: "relative", RowKey: "a" }),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201]);
  });

  test("bare LF line endings", async () => {
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "lf", RowKey: "a" }),
      insert(`${endpoint}/${table}`, { PartitionKey: "lf", RowKey: "b" }),
    ], { eol: "\n" }));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201, 201]);
  });

  test("quoted boundaries in both the batch and the change set", async () => {
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "quoted", RowKey: "a" }),
    ], { quoteBoundary: true }));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201]);
  });

  test("the .NET shape: Content-ID, DataServiceVersion, Prefer, nometadata body type", async () => {
    const parts = [0, 1, 2].map((i) => [
      `POST ${endpoint}/${table} HTTP/1.1`,
      `Content-ID: ${i}`,
      "Accept: application/json;odata=minimalmetadata",
      "Content-Type: application/json;odata=nometadata",
      "Prefer: return-no-content",
      "DataServiceVersion: 3.0",
      "",
      json({ PartitionKey: "dotnet", RowKey: `r${i}`, "When@odata.type": "Edm.DateTime", When: "2021-04-15T23:09:46.5446473Z" }),
    ].join("\n"));
    const response = await postBatch(batchBody(parts), { DataServiceVersion: "3.0", MaxDataServiceVersion: "3.0;NetFx" });
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [204, 204, 204]);
    const stored = await client.getEntity("dotnet", "r1", { disableTypeConversion: true });
    assert.deepEqual(stored.When, { value: "2021-04-15T23:09:46.5446473Z", type: "DateTime" });
  });

  test("the Python shape: per-part x-ms-version, x-ms-date, Content-Length, PATCH merges, key type annotations", async () => {
    await client.createEntity({ partitionKey: "python", rowKey: "m", a: 1 });
    const body = json({ PartitionKey: "python", "PartitionKey@odata.type": "Edm.String", RowKey: "n", RowKey_: 1, big: "12", "big@odata.type": "Edm.Int64" });
    const merge = json({ PartitionKey: "python", RowKey: "m", b: 2 });
    const common = ["x-ms-version: 2019-02-02", "DataServiceVersion: 3.0", `x-ms-date: ${new Date().toUTCString()}`];
    const response = await postBatch(batchBody([
      [`POST ${endpoint}/${table} HTTP/1.1`, ...common, "Content-Type: application/json", "Accept: application/json;odata=minimalmetadata",
        `Content-Length: ${Buffer.byteLength(body)}`, "", body].join("\n"),
      [`PATCH ${endpoint}/${keyPath("python", "m")} HTTP/1.1`, ...common, "Content-Type: application/json", "Accept: application/json",
        `Content-Length: ${Buffer.byteLength(merge)}`, "", merge].join("\n"),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201, 204]);
    const merged = await client.getEntity("python", "m");
    assert.equal(merged.a, 1);
    assert.equal(merged.b, 2);
    assert.equal((await client.getEntity("python", "n")).big, 12n);
  });

  test("MERGE, PATCH and POST with X-HTTP-Method: MERGE all merge", async () => {
    for (const rk of ["merge", "patch", "tunnel"]) {
      await client.createEntity({ partitionKey: "verbs", rowKey: rk, keep: true });
    }
    const response = await postBatch(batchBody([
      write("MERGE", `${endpoint}/${keyPath("verbs", "merge")}`, { v: 1 }, ["If-Match: *"]),
      write("PATCH", `${endpoint}/${keyPath("verbs", "patch")}`, { v: 2 }),
      write("POST", `${endpoint}/${keyPath("verbs", "tunnel")}`, { v: 3 }, ["X-HTTP-Method: MERGE", "If-Match: *"]),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [204, 204, 204]);
    for (const [rk, v] of [["merge", 1], ["patch", 2], ["tunnel", 3]]) {
      const entity = await client.getEntity("verbs", rk);
      assert.equal(entity.keep, true, rk);
      assert.equal(entity.v, v, rk);
    }
  });

  test("If-Match: * on a missing entity is 404; a made-up etag on a missing entity is 404 too", async () => {
    for (const ifMatch of ["*", `W/"datetime'2021-05-22T22%3A58%3A40.6450000Z'"`]) {
      const response = await postBatch(batchBody([
        write("PATCH", `${endpoint}/${keyPath("ifmatch", "absent")}?$format=application%2Fjson%3Bodata%3Dminimalmetadata`,
          { PartitionKey: "ifmatch", RowKey: "absent" }, [`If-Match: ${ifMatch}`, "DataServiceVersion: 3.0", "Host: 127.0.0.1"]),
      ]));
      assert.equal(response.status, 202, response.text);
      assert.deepEqual(response.statuses, [404], ifMatch);
      assert.match(response.text, /ResourceNotFound/);
    }
  });

  test("PUT with a stale etag is 412 and nothing is written", async () => {
    await client.createEntity({ partitionKey: "stale", rowKey: "x", v: 1 });
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "stale", RowKey: "y" }),
      write("PUT", `${endpoint}/${keyPath("stale", "x")}`, { v: 2 }, [`If-Match: W/"datetime'2022-02-23T07%3A21%3A33.9580000Z'"`]),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [412]);
    assert.match(response.text, /UpdateConditionNotSatisfied/);
    assert.match(response.text, /"1:/);
    assert.equal((await client.getEntity("stale", "x")).v, 1);
  });

  test("DELETE with the current etag (as read from the entity) succeeds", async () => {
    await client.createEntity({ partitionKey: "del", rowKey: "x" });
    const etag = (await client.getEntity("del", "x")).etag;
    const response = await postBatch(batchBody([
      [`DELETE ${endpoint}/${keyPath("del", "x")} HTTP/1.1`, "Accept: application/json;odata=nometadata",
        "Content-Type: application/json", `If-Match: ${etag}`, "", ""].join("\n"),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [204]);
  });

  test("keys with quotes, spaces, colons and percent signs in sub-request URLs", async () => {
    const keys = ["O'Brien", "with space", "DE415C09:2D29BB", "100%", "a+b", "ünï"];
    const response = await postBatch(batchBody(keys.map((k) => insert(`${endpoint}/${table}`, { PartitionKey: "urlkeys", RowKey: k }))));
    assert.deepEqual(response.statuses, keys.map(() => 201));
    const merge = await postBatch(batchBody(keys.map((k) => write("MERGE", `${endpoint}/${keyPath("urlkeys", k)}`, { v: k }, ["If-Match: *"]))));
    assert.deepEqual(merge.statuses, keys.map(() => 204), merge.text);
    for (const k of keys) {
      assert.equal((await client.getEntity("urlkeys", k)).v, k);
    }
  });

  test("inserts answer in the Accept level of each part and honour Prefer", async () => {
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "accept", RowKey: "none" }, []).replace("odata=minimalmetadata", "odata=nometadata"),
      insert(`${endpoint}/${table}`, { PartitionKey: "accept", RowKey: "full", n: 1 }).replace("odata=minimalmetadata", "odata=fullmetadata"),
      insert(`${endpoint}/${table}`, { PartitionKey: "accept", RowKey: "quiet" }, ["Prefer: return-no-content"]),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201, 201, 204]);
    assert.match(response.text, /"odata\.type":"[^"]+\.[^"]+"/);
    assert.match(response.text, /"Timestamp@odata\.type":"Edm\.DateTime"/);
    assert.doesNotMatch(response.text, /"n@odata\.type"/); // Azure annotates no Int32, at any level
    assert.match(response.text, /Location: [^\r\n]+RowKey='quiet'\)/);
    assert.match(response.headers.get("content-type"), /^multipart\/mixed; ?boundary=batchresponse_/);
  });

  test("the outer request may ask for full metadata", async () => {
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "outer", RowKey: "full" }),
    ]), { Accept: "application/json;odata=fullmetadata" });
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [201]);
  });

  test("a Logic Apps style batch: binary and datetime payloads, stale etag on an existing entity", async () => {
    const flow = {
      PartitionKey: "09CEE", RowKey: "FLOWIDENTIFIER-5539F65E020B44FCA32CF9CBE56E286A",
      Sku: "{\"name\":\"Standard\",\"plan\":{\"name\":\"farm0\"}}", State: "Enabled",
      CreatedTime: "2021-04-15T23:09:46.5446473Z", "CreatedTime@odata.type": "Edm.DateTime",
      DeletedTime: "1970-01-01T00:00:00Z", "DeletedTime@odata.type": "Edm.DateTime",
      Definition: "jwcotS/9AEgVAwCiRhYYkLcNkP8mJJYMoNGjbJnZPa29JAj6mJmxrTE9", "Definition@odata.type": "Edm.Binary",
      Metadata: "F3t9", "Metadata@odata.type": "Edm.Binary", FlowSequenceId: "08585830786989753914",
    };
    const first = await postBatch(batchBody([
      insert(`http://127.0.0.1:10002/devstoreaccount1/${table}`, flow, ["Prefer: return-no-content"]),
      insert(`http://127.0.0.1:10002/devstoreaccount1/${table}`, { ...flow, RowKey: "FLOWLOOKUP-DE415C09:2D29BB:2D483D-TESTFLOW1" }, ["Prefer: return-no-content"]),
    ]), { "x-ms-version": "2018-03-28", "user-agent": "ResourceStack/6.0.0.1260" });
    assert.deepEqual(first.statuses, [204, 204], first.text);
    const stored = await raw("GET", `${table}(PartitionKey='09CEE',RowKey='FLOWIDENTIFIER-5539F65E020B44FCA32CF9CBE56E286A')`, {
      headers: { Accept: "application/json;odata=minimalmetadata", "x-ms-version": "2018-03-28" },
    });
    assert.equal(stored.status, 200);
    assert.equal(stored.json["Definition@odata.type"], "Edm.Binary");
    const etag = stored.json["odata.etag"];
    const second = await postBatch(batchBody([
      write("PUT", `http://127.0.0.1:10002/devstoreaccount1/${table}(PartitionKey='09CEE',RowKey='FLOWLOOKUP-DE415C09%3A2D29BB%3A2D483D-TESTFLOW1')`,
        { State: "Disabled" }, [`If-Match: W/"datetime'2021-04-15T23%3A09%3A46.5910000Z'"`]),
    ]));
    assert.deepEqual(second.statuses, [412], second.text);
    const third = await postBatch(batchBody([
      write("DELETE", `http://127.0.0.1:10002/devstoreaccount1/${table}(PartitionKey='09CEE',RowKey='FLOWIDENTIFIER-5539F65E020B44FCA32CF9CBE56E286A')`,
        undefined, [`If-Match: ${etag}`]),
    ]));
    assert.deepEqual(third.statuses, [204], third.text);
  });

  test("a single entity query outside a change set: 200 with the entity, or 404", async () => {
    await client.createEntity({ partitionKey: "Channel_19", rowKey: "1", v: "here" });
    const found = await postBatch(batchBody([
      [`GET ${endpoint}/${keyPath("Channel_19", "1")} HTTP/1.1`, "Accept: application/json;odata=minimalmetadata", "", ""].join("\n"),
    ], { changeset: false }));
    assert.equal(found.status, 202, found.text);
    assert.deepEqual(found.statuses, [200]);
    assert.match(found.text, /"v":"here"/);
    const missing = await postBatch(batchBody([
      [`GET ${endpoint}/${keyPath("Channel_19", "2")} HTTP/1.1`, "Accept: application/json;odata=minimalmetadata", "", ""].join("\n"),
    ], { changeset: false }));
    assert.equal(missing.status, 202, missing.text);
    assert.deepEqual(missing.statuses, [404]);
  });

  test("a single query part whose headers run straight into the closing boundary", async () => {
    await client.createEntity({ partitionKey: "tight", rowKey: "1" });
    const boundary = "batch_f351702c-c8c8-48c6-af2c-91b809c651ce";
    const body = `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n`
      + `GET ${endpoint}/${keyPath("tight", "1")} HTTP/1.1\r\nAccept: application/json;odata=minimalmetadata\r\n--${boundary}--\r\n`;
    const response = await postBatch({ contentType: `multipart/mixed; boundary=${boundary}`, body });
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [200]);
  });

  test("operations on different partitions are 400 CommandsInBatchActOnDifferentPartitions", async () => {
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${table}`, { PartitionKey: "p1", RowKey: "x" }),
      insert(`${endpoint}/${table}`, { PartitionKey: "p2", RowKey: "x" }),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [400]);
    assert.match(response.text, /CommandsInBatchActOnDifferentPartitions/);
    assert.match(response.text, /"1:/);
  });

  test("a batch on a missing table reports TableNotFound with the index", async () => {
    const missing = `nosuchtable${Date.now()}`;
    const response = await postBatch(batchBody([
      insert(`${endpoint}/${missing}`, { PartitionKey: "a", RowKey: "b" }),
      insert(`${endpoint}/${missing}`, { PartitionKey: "a", RowKey: "c" }),
    ]));
    assert.equal(response.status, 202, response.text);
    assert.deepEqual(response.statuses, [404]);
    assert.match(response.text, /TableNotFound/);
    assert.match(response.text, /"0:/);
  });

  test("101 operations are rejected", async () => {
    const parts = [];
    for (let i = 0; i < 101; i++) {
      parts.push(insert(`${endpoint}/${table}`, { PartitionKey: "many", RowKey: `r${i}` }));
    }
    const response = await postBatch(batchBody(parts));
    assert.ok(response.status === 202 || response.status === 400, String(response.status));
    assert.match(response.text, /InvalidInput/);
    assert.equal((await raw("GET", `${table}(PartitionKey='many',RowKey='r0')`, { headers: { Accept: "application/json" } })).status, 404);
  });

  test("a malformed body is 400, not 500", async () => {
    for (const body of ["not multipart at all", "--batch_x\r\nContent-Type: application/http\r\n\r\nGARBAGE\r\n--batch_x--\r\n", ""]) {
      const response = await raw("POST", "$batch", {
        headers: { "Content-Type": "multipart/mixed; boundary=batch_x", Accept: "application/json" },
        body,
      });
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.status} ${response.text}`);
    }
    const noBoundary = await raw("POST", "$batch", { headers: { "Content-Type": "multipart/mixed", Accept: "application/json" }, body: "x" });
    assert.equal(noBoundary.status, 400);
  });

  test("batch response parts use CRLF and carry ETags", async () => {
    const response = await postBatch(batchBody([
      write("PUT", `${endpoint}/${keyPath("crlf", "x")}`, { v: 1 }),
      write("MERGE", `${endpoint}/${keyPath("crlf", "y")}`, { v: 1 }),
    ]));
    assert.deepEqual(response.statuses, [204, 204]);
    assert.match(response.text, /HTTP\/1\.1 204 No Content\r\n/);
    assert.equal((response.text.match(/\r\nETag: W\/"datetime'/g) ?? []).length, 2);
  });
});
