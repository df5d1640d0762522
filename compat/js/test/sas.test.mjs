// Shared access signatures made by @azure/data-tables: table SAS (permissions, key ranges, stored policies) and
// account SAS (services, resource types, permissions), used through AzureSASCredential and SAS connection strings.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  AzureSASCredential, TableClient, TableServiceClient, generateAccountSas, generateTableSas, odata,
} from "@azure/data-tables";
import { all, clientOptions, credential, endpoint, expectError, newTable, uniqueTableName } from "./support.mjs";

const inAnHour = () => new Date(Date.now() + 3600_000);

describe("shared access signatures", () => {
  let owner;
  let table;
  before(async () => {
    owner = await newTable("sas");
    table = owner.tableName;
    await owner.submitTransaction(["a", "b", "c", "d"].map((pk) => ["upsert", { partitionKey: "p", rowKey: pk, v: pk }]));
    for (const pk of ["p1", "p2", "p3"]) {
      await owner.createEntity({ partitionKey: pk, rowKey: "r1" });
      await owner.createEntity({ partitionKey: pk, rowKey: "r2" });
    }
  });
  after(async () => {
    await owner.deleteTable();
  });

  const sasClient = (sas, name = table) => new TableClient(endpoint, name, new AzureSASCredential(sas), clientOptions);

  test("a query-only table SAS reads but cannot write", async () => {
    const client = sasClient(generateTableSas(table, credential, { permissions: { query: true }, expiresOn: inAnHour() }));
    assert.equal((await client.getEntity("p", "a")).v, "a");
    assert.equal((await all(client.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${"p"}` } }))).length, 4);
    await expectError(client.createEntity({ partitionKey: "p", rowKey: "new" }), 403, "AuthorizationPermissionMismatch");
    await expectError(client.deleteEntity("p", "a"), 403, "AuthorizationPermissionMismatch");
  });

  test("add, update and delete permissions map to their operations; upsert needs add and update", async () => {
    const add = sasClient(generateTableSas(table, credential, { permissions: { add: true }, expiresOn: inAnHour() }));
    await add.createEntity({ partitionKey: "perm", rowKey: "1" });
    await expectError(add.updateEntity({ partitionKey: "perm", rowKey: "1", x: 1 }, "Merge"), 403);
    await expectError(add.upsertEntity({ partitionKey: "perm", rowKey: "2" }, "Merge"), 403);
    const update = sasClient(generateTableSas(table, credential, { permissions: { update: true }, expiresOn: inAnHour() }));
    await update.updateEntity({ partitionKey: "perm", rowKey: "1", x: 1 }, "Merge");
    await expectError(update.upsertEntity({ partitionKey: "perm", rowKey: "2" }, "Replace"), 403);
    const both = sasClient(generateTableSas(table, credential, { permissions: { add: true, update: true }, expiresOn: inAnHour() }));
    await both.upsertEntity({ partitionKey: "perm", rowKey: "2" }, "Replace");
    const remove = sasClient(generateTableSas(table, credential, { permissions: { delete: true }, expiresOn: inAnHour() }));
    await remove.deleteEntity("perm", "1");
    await remove.deleteEntity("perm", "2");
    await expectError(remove.getEntity("perm", "1"), 403);
  });

  test("a transaction through a table SAS checks each action", async () => {
    const addOnly = sasClient(generateTableSas(table, credential, { permissions: { add: true }, expiresOn: inAnHour() }));
    await addOnly.submitTransaction([["create", { partitionKey: "tx", rowKey: "1" }], ["create", { partitionKey: "tx", rowKey: "2" }]]);
    await expectError(addOnly.submitTransaction([["create", { partitionKey: "tx", rowKey: "3" }], ["delete", { partitionKey: "tx", rowKey: "1" }]]), 403);
    await expectError(owner.getEntity("tx", "3"), 404, "ResourceNotFound");
  });

  test("a table SAS for a table whose name has capitals", async () => {
    const mixed = await newTable("SasMixedCase");
    try {
      await mixed.createEntity({ partitionKey: "p", rowKey: "r", v: 1 });
      const sas = generateTableSas(mixed.tableName, credential, { permissions: { query: true, add: true }, expiresOn: inAnHour() });
      const client = sasClient(sas, mixed.tableName);
      assert.equal((await client.getEntity("p", "r")).v, 1);
      await client.createEntity({ partitionKey: "p", rowKey: "s" });
      await expectError(client.deleteEntity("p", "s"), 403);
    } finally {
      await mixed.deleteTable();
    }
  });

  test("a table SAS is for its own table only", async () => {
    const other = await newTable("sasother");
    try {
      const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: inAnHour() });
      await expectError(all(sasClient(sas, other.tableName).listEntities()), 403);
    } finally {
      await other.deleteTable();
    }
  });

  test("a partition-key range limits queries and rejects writes outside it", async () => {
    const client = sasClient(generateTableSas(table, credential, {
      permissions: { query: true, add: true }, expiresOn: inAnHour(), startPartitionKey: "p1", endPartitionKey: "p2",
    }));
    const rows = await all(client.listEntities());
    assert.deepEqual(rows.map((e) => `${e.partitionKey}/${e.rowKey}`), ["p1/r1", "p1/r2", "p2/r1", "p2/r2"]);
    await client.createEntity({ partitionKey: "p2", rowKey: "r3" });
    await expectError(client.createEntity({ partitionKey: "p3", rowKey: "r3" }), 403);
    await expectError(client.getEntity("p3", "r1"), 403);
  });

  test("a row-key range within one partition", async () => {
    const client = sasClient(generateTableSas(table, credential, {
      permissions: { query: true }, expiresOn: inAnHour(),
      startPartitionKey: "p", startRowKey: "b", endPartitionKey: "p", endRowKey: "c",
    }));
    assert.deepEqual((await all(client.listEntities())).map((e) => e.rowKey), ["b", "c"]);
  });

  test("a SAS bound to a stored access policy takes its permissions and expiry from the policy", async () => {
    await owner.setAccessPolicy([{ id: "readers", accessPolicy: { permission: "r", expiry: inAnHour() } }]);
    try {
      const client = sasClient(generateTableSas(table, credential, { identifier: "readers" }));
      assert.equal((await client.getEntity("p", "b")).v, "b");
      await expectError(client.createEntity({ partitionKey: "p", rowKey: "z" }), 403);
      await owner.setAccessPolicy([]);
      await expectError(client.getEntity("p", "b"), 403);
    } finally {
      await owner.setAccessPolicy([]);
    }
  });

  test("an expired or not yet valid SAS is 403 AuthenticationFailed", async () => {
    const expired = sasClient(generateTableSas(table, credential, { permissions: { query: true }, expiresOn: new Date(Date.now() - 60_000) }));
    await expectError(expired.getEntity("p", "a"), 403, "AuthenticationFailed");
    const future = sasClient(generateTableSas(table, credential, {
      permissions: { query: true }, startsOn: new Date(Date.now() + 3600_000), expiresOn: new Date(Date.now() + 7200_000),
    }));
    await expectError(future.getEntity("p", "a"), 403, "AuthenticationFailed");
  });

  test("a tampered signature is 403 AuthenticationFailed", async () => {
    const sas = generateTableSas(table, credential, { permissions: { query: true }, expiresOn: inAnHour() });
    const tampered = sas.replace(/sp=r/, "sp=raud");
    await expectError(sasClient(tampered).getEntity("p", "a"), 403, "AuthenticationFailed");
  });

  test("an account SAS with list and write creates, lists and deletes tables", async () => {
    const sas = generateAccountSas(credential, {
      permissions: { list: true, write: true, delete: true, add: true }, resourceTypes: "sc", expiresOn: inAnHour(),
    });
    const service = new TableServiceClient(endpoint, new AzureSASCredential(sas), clientOptions);
    const name = uniqueTableName("acct");
    await service.createTable(name);
    const listed = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${name}` } }));
    assert.deepEqual(listed.map((t) => t.name), [name]);
    await service.deleteTable(name);
  });

  test("an account SAS without the needed permission or resource type is refused", async () => {
    const listOnly = new TableServiceClient(endpoint, new AzureSASCredential(generateAccountSas(credential, {
      permissions: { list: true }, resourceTypes: "sco", expiresOn: inAnHour(),
    })), clientOptions);
    await all(listOnly.listTables());
    await expectError(listOnly.createTable(uniqueTableName("nope")), 403);
    const objectsOnly = sasClient(generateAccountSas(credential, {
      permissions: { query: true, add: true }, resourceTypes: "o", expiresOn: inAnHour(),
    }));
    assert.equal((await objectsOnly.getEntity("p", "a")).v, "a");
    await objectsOnly.createEntity({ partitionKey: "acct", rowKey: "o" });
    await expectError(objectsOnly.updateEntity({ partitionKey: "acct", rowKey: "o", x: 1 }), 403);
    const containersOnly = new TableServiceClient(endpoint, new AzureSASCredential(generateAccountSas(credential, {
      permissions: { list: true, query: true }, resourceTypes: "c", expiresOn: inAnHour(),
    })), clientOptions);
    await all(containersOnly.listTables());
    await expectError(sasClient(generateAccountSas(credential, {
      permissions: { query: true }, resourceTypes: "s", expiresOn: inAnHour(),
    })).getEntity("p", "a"), 403);
  });

  test("account SAS for service properties", async () => {
    const reader = new TableServiceClient(endpoint, new AzureSASCredential(generateAccountSas(credential, {
      permissions: { query: true }, resourceTypes: "s", expiresOn: inAnHour(),
    })), clientOptions);
    assert.ok((await reader.getProperties()).logging);
  });

  test("a SAS connection string works with fromConnectionString", async () => {
    const sas = generateAccountSas(credential, { permissions: { query: true, list: true }, resourceTypes: "sco", expiresOn: inAnHour() });
    const client = TableClient.fromConnectionString(`TableEndpoint=${endpoint};SharedAccessSignature=${sas}`, table, clientOptions);
    assert.equal((await client.getEntity("p", "c")).v, "c");
  });

  test("ACLs cannot be read or written with a SAS", async () => {
    const sas = generateAccountSas(credential, {
      permissions: { query: true, list: true, write: true, add: true, update: true, delete: true }, resourceTypes: "sco", expiresOn: inAnHour(),
    });
    const client = sasClient(sas);
    await expectError(client.getAccessPolicy(), 403);
  });
});
