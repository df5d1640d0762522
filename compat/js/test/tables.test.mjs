// Table and service operations through @azure/data-tables: create/delete/list, ACLs, service properties and stats.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { TableServiceClient, odata } from "@azure/data-tables";
import {
  accountName, all, clientOptions, credential, endpoint, expectError, raw, serviceClient, tableClient,
  uniqueTableName,
} from "./support.mjs";

describe("tables", () => {
  const service = serviceClient();

  test("createTable, listTables with a filter, deleteTable", async () => {
    const name = uniqueTableName("lst");
    await service.createTable(name);
    const found = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } }));
    assert.deepEqual(found.map((t) => t.name), [name]);
    await service.deleteTable(name);
    const gone = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } }));
    assert.equal(gone.length, 0);
  });

  test("createTable on an existing table: the service client swallows 409, the raw call reports TableAlreadyExists", async () => {
    const name = uniqueTableName("dup");
    await service.createTable(name);
    await service.createTable(name);
    await tableClient(name).createTable();
    const again = await raw("POST", "Tables", {
      headers: { "Content-Type": "application/json", Accept: "application/json;odata=nometadata" },
      body: JSON.stringify({ TableName: name.toUpperCase() }),
    });
    assert.equal(again.status, 409);
    assert.equal(again.json["odata.error"].code, "TableAlreadyExists");
    assert.equal(again.headers.get("x-ms-error-code"), "TableAlreadyExists");
    await service.deleteTable(name);
  });

  test("table names are case-insensitive and keep their casing", async () => {
    const name = `Mixed${uniqueTableName("Case")}`;
    await service.createTable(name);
    const listed = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } }));
    assert.deepEqual(listed.map((t) => t.name), [name]);
    await tableClient(name.toLowerCase()).createEntity({ partitionKey: "p", rowKey: "r" });
    assert.equal((await tableClient(name.toUpperCase()).getEntity("p", "r")).rowKey, "r");
    await service.deleteTable(name.toUpperCase());
    await expectError(tableClient(name).getEntity("p", "r"), 404, "TableNotFound");
  });

  test("deleting a missing table: the service client ignores it, the raw call is 404 ResourceNotFound", async () => {
    const name = uniqueTableName("gone");
    await service.deleteTable(name);
    const response = await raw("DELETE", `Tables('${name}')`);
    assert.equal(response.status, 404);
    assert.equal(response.headers.get("x-ms-error-code"), "ResourceNotFound");
  });

  test("listTables pages with byPage and continuation tokens", async () => {
    const prefix = `pg${uniqueTableName("x").slice(1, 8)}`;
    const names = [];
    for (let i = 0; i < 7; i++) {
      names.push(`${prefix}n${i}`);
      await service.createTable(`${prefix}n${i}`);
    }
    const filter = odata`TableName ge ${prefix} and TableName lt ${`${prefix}~`}`;
    const pages = [];
    for await (const page of service.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 3 })) {
      pages.push(page.map((t) => t.name));
    }
    assert.deepEqual(pages.map((p) => p.length), [3, 3, 1]);
    assert.deepEqual(pages.flat().sort(), names.sort());
    const iterator = service.listTables({ queryOptions: { filter } }).byPage({ maxPageSize: 5 });
    const first = (await iterator.next()).value;
    assert.equal(first.length, 5);
    assert.ok(first.continuationToken);
    const resumed = service.listTables({ queryOptions: { filter } })
      .byPage({ maxPageSize: 5, continuationToken: first.continuationToken });
    const second = (await resumed.next()).value;
    assert.deepEqual(second.map((t) => t.name).sort(), names.sort().slice(5));
    for (const name of names) {
      await service.deleteTable(name);
    }
  });

  test("invalid table names are 400 on create", async () => {
    for (const name of ["1startsWithDigit", "ab", "has-dash", "has_underscore", "tables", "x".repeat(64)]) {
      await expectError(service.createTable(name), 400);
    }
  });

  test("setAccessPolicy and getAccessPolicy round-trip identifiers with and without a policy", async () => {
    const name = uniqueTableName("acl");
    const client = tableClient(name);
    await client.createTable();
    const start = new Date("2024-01-01T00:00:00Z");
    const expiry = new Date("2030-12-31T23:59:59Z");
    await client.setAccessPolicy([
      { id: "MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=", accessPolicy: { start, expiry, permission: "raud" } },
      { id: "readonly", accessPolicy: { expiry, permission: "r" } },
      { id: "empty" },
    ]);
    // The SDK answers an array of signed identifiers (with the response headers attached).
    const acl = await client.getAccessPolicy();
    const byId = Object.fromEntries(acl.map((si) => [si.id, si]));
    assert.deepEqual(Object.keys(byId).sort(), ["MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI=", "empty", "readonly"]);
    const full = byId["MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI="].accessPolicy;
    assert.equal(full.permission, "raud");
    assert.equal(full.start.toISOString(), start.toISOString());
    assert.equal(full.expiry.toISOString(), expiry.toISOString());
    assert.equal(byId.readonly.accessPolicy.permission, "r");
    await client.setAccessPolicy([]);
    assert.equal((await client.getAccessPolicy()).length, 0);
    await client.deleteTable();
  });

  test("more than five access policies are rejected with 400", async () => {
    const client = tableClient(uniqueTableName("acl"));
    await client.createTable();
    const policies = [];
    for (let i = 0; i < 6; i++) {
      policies.push({ id: `id${i}`, accessPolicy: { permission: "r", expiry: new Date("2030-01-01T00:00:00Z") } });
    }
    await expectError(client.setAccessPolicy(policies), 400, "InvalidXmlDocument");
    await client.deleteTable();
  });

  test("access policy on a missing table is 404", async () => {
    await expectError(tableClient(uniqueTableName("noacl")).getAccessPolicy(), 404, "TableNotFound");
  });

  test("service properties: read, change CORS and logging, read back", async () => {
    const original = await service.getProperties();
    assert.ok(original.logging);
    assert.equal(original.logging.version, "1.0");
    const cors = [{
      allowedOrigins: "http://compat.example",
      allowedMethods: "GET,PUT",
      allowedHeaders: "x-ms-meta-*",
      exposedHeaders: "x-ms-request-id",
      maxAgeInSeconds: 60,
    }];
    try {
      await service.setProperties({
        cors,
        logging: { version: "1.0", read: true, write: false, delete: true, retentionPolicy: { enabled: true, days: 3 } },
      });
      const changed = await service.getProperties();
      assert.deepEqual(changed.cors, cors);
      assert.equal(changed.logging.read, true);
      assert.equal(changed.logging.delete, true);
      assert.equal(changed.logging.retentionPolicy.days, 3);
      assert.deepEqual(changed.hourMetrics, original.hourMetrics);
    } finally {
      await service.setProperties({ cors: original.cors ?? [], logging: original.logging });
    }
  });

  test("service statistics on the primary are refused as Azure does (on localhost the SDK cannot name a secondary)", async () => {
    const local = new TableServiceClient(endpoint.replace("127.0.0.1", "localhost"), credential, clientOptions);
    await expectError(local.getStatistics(), 400, "InvalidQueryParameterValue");
  });

  test("the path-style secondary endpoint ({account}-secondary) serves statistics and reads, not writes", async () => {
    const secondary = new TableServiceClient(`${endpoint}-secondary`, credential, clientOptions);
    const stats = await secondary.getStatistics();
    assert.equal(stats.geoReplication.status, "live");
    assert.ok(stats.geoReplication.lastSyncTime instanceof Date);
    await all(secondary.listTables());
    await expectError(secondary.createTable(uniqueTableName("nowrite")), 403);
  });

  test("a malformed x-ms-version is 400 InvalidHeaderValue", async () => {
    const response = await raw("GET", "Tables", { headers: { "x-ms-version": "invalid", Accept: "application/json" } });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get("x-ms-error-code"), "InvalidHeaderValue");
  });

  test("Query Tables answers in each metadata level", async () => {
    const name = uniqueTableName("meta");
    await service.createTable(name);
    const path = `Tables?$filter=${encodeURIComponent(`TableName eq '${name}'`)}`;
    const none = await raw("GET", path, { headers: { Accept: "application/json;odata=nometadata" } });
    assert.deepEqual(none.json, { value: [{ TableName: name }] });
    const minimal = await raw("GET", path, { headers: { Accept: "application/json;odata=minimalmetadata" } });
    assert.equal(minimal.json["odata.metadata"], `${endpoint}/$metadata#Tables`);
    const full = await raw("GET", path, { headers: { Accept: "application/json;odata=fullmetadata" } });
    assert.equal(full.json.value[0]["odata.type"], `${accountName}.Tables`);
    assert.equal(full.json.value[0]["odata.id"], `${endpoint}/Tables('${name}')`);
    assert.equal(full.json.value[0]["odata.editLink"], `Tables('${name}')`);
    await service.deleteTable(name);
  });

  test("Create Table honours Prefer and answers in the requested metadata level", async () => {
    const name = uniqueTableName("prefer");
    const noContent = await raw("POST", "Tables", {
      headers: { "Content-Type": "application/json", Accept: "application/json;odata=minimalmetadata", Prefer: "return-no-content" },
      body: JSON.stringify({ TableName: name }),
    });
    assert.equal(noContent.status, 204);
    assert.equal(noContent.text, "");
    assert.equal(noContent.headers.get("preference-applied"), "return-no-content");
    const other = uniqueTableName("prefer");
    const full = await raw("POST", "Tables", {
      headers: { "Content-Type": "application/json", Accept: "application/json;odata=fullmetadata", Prefer: "return-content" },
      body: JSON.stringify({ TableName: other }),
    });
    assert.equal(full.status, 201);
    assert.equal(full.json.TableName, other);
    assert.equal(full.json["odata.metadata"], `${endpoint}/$metadata#Tables/@Element`);
    assert.equal(full.json["odata.type"], `${accountName}.Tables`);
    assert.equal(full.json["odata.editLink"], `Tables('${other}')`);
    await service.deleteTable(name);
    await service.deleteTable(other);
  });
});

describe("CORS", () => {
  const service = serviceClient();
  let original;
  before(async () => {
    original = await service.getProperties();
  });
  after(async () => {
    await service.setProperties({ cors: original.cors ?? [] });
  });

  const rule = (origins, methods, headers = "header") =>
    ({ allowedOrigins: origins, allowedMethods: methods, allowedHeaders: headers, exposedHeaders: "*", maxAgeInSeconds: 8888 });
  const preflight = (origin, method, requestHeaders) => {
    const headers = {};
    if (origin !== undefined) headers.Origin = origin;
    if (method !== undefined) headers["Access-Control-Request-Method"] = method;
    if (requestHeaders !== undefined) headers["Access-Control-Request-Headers"] = requestHeaders;
    return raw("OPTIONS", "?restype=service&comp=properties", { sign: false, headers });
  };

  test("a preflight without any rule is 403 CorsPreflightFailure", async () => {
    await service.setProperties({ cors: [] });
    const response = await preflight("http://any.example", "GET");
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("x-ms-error-code"), "CorsPreflightFailure");
  });

  test("preflights match origin, method and request headers (exact, * and prefix*)", async () => {
    await service.setProperties({ cors: [rule("test", "GET"), rule("test", "PUT", "*"), rule("test", "POST", "head*")] });
    assert.equal((await preflight("Origin", "GET")).status, 403);
    assert.equal((await preflight("test", "DELETE")).status, 403);
    assert.equal((await preflight("test", "GET", "head")).status, 403);
    const allowed = await preflight("test", "GET", "header");
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get("access-control-allow-origin"), "test");
    assert.equal(allowed.headers.get("access-control-max-age"), "8888");
    assert.equal((await preflight("test", "PUT", "head")).status, 200);
    assert.equal((await preflight("test", "POST", "hea")).status, 403);
    assert.equal((await preflight("test", "POST", "headerheader")).status, 200);
  });

  test("a preflight without Origin or Access-Control-Request-Method is refused", async () => {
    await service.setProperties({ cors: [rule("test", "GET")] });
    assert.ok([400, 403].includes((await preflight(undefined, "GET")).status));
    assert.equal((await preflight("test", undefined)).status, 400);
  });

  test("a rule for all origins answers * without Vary", async () => {
    await service.setProperties({ cors: [rule("*", "GET")] });
    assert.equal((await preflight("anyOrigin", "GET")).status, 200);
    const actual = await raw("GET", "?restype=service&comp=properties", { headers: { Origin: "anyOrigin" } });
    assert.equal(actual.status, 200);
    assert.equal(actual.headers.get("access-control-allow-origin"), "*");
    assert.ok(actual.headers.get("access-control-expose-headers"));
  });

  test("an exact origin is echoed with Vary: Origin, also on error responses", async () => {
    await service.setProperties({ cors: [rule("exactOrigin", "GET")] });
    const actual = await raw("GET", "?restype=service&comp=properties", { headers: { Origin: "exactOrigin" } });
    assert.equal(actual.headers.get("access-control-allow-origin"), "exactOrigin");
    assert.match(actual.headers.get("vary") ?? "", /Origin/i);
    const failed = await raw("GET", "Tables('nosuchtable1234')", { headers: { Origin: "exactOrigin", Accept: "application/json" } });
    assert.equal(failed.status, 404);
    assert.equal(failed.headers.get("access-control-allow-origin"), "exactOrigin");
  });

  test("requests without Origin, or with no rules, carry no CORS headers", async () => {
    await service.setProperties({ cors: [] });
    const noRules = await raw("GET", "?restype=service&comp=properties", { headers: { Origin: "anyOrigin" } });
    assert.equal(noRules.headers.get("access-control-allow-origin"), null);
    await service.setProperties({ cors: [rule("test", "GET")] });
    const noOrigin = await raw("GET", "?restype=service&comp=properties", {});
    assert.equal(noOrigin.headers.get("access-control-allow-origin"), null);
  });
});
