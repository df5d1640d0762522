// The JavaScript SDK over HTTPS with host-style URLs, as it addresses Azure: https://{account}.table.{suffix}.
// The Java test (JsHttpsTest) starts Trestle with a certificate it made for *.table.trestle.test, trusted here
// through NODE_EXTRA_CA_CERTS; every name resolves to 127.0.0.1 through the agent's lookup function, and the
// port rides in the endpoint suffix.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import https from "node:https";
import {
  AzureNamedKeyCredential, AzureSASCredential, TableClient, TableServiceClient, generateAccountSas,
  generateTableSas, odata,
} from "@azure/data-tables";

const port = process.env.TRESTLE_HTTPS_PORT;
const accountName = process.env.TRESTLE_ACCOUNT;
const accountKey = process.env.TRESTLE_ACCOUNT_KEY;
const suffix = `trestle.test:${port}`;
const endpoint = `https://${accountName}.table.${suffix}`;
const credential = new AzureNamedKeyCredential(accountName, accountKey);

/** Every host name is this machine: the certificate and the Host header keep the name. */
function loopback(hostname, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = {};
  }
  if (options.all) {
    callback(null, [{ address: "127.0.0.1", family: 4 }]);
  } else {
    callback(null, "127.0.0.1", 4);
  }
}
const agent = new https.Agent({ keepAlive: true, lookup: loopback });
const options = { agent };
const inAnHour = () => new Date(Date.now() + 3600_000);

async function all(iterable) {
  const items = [];
  for await (const item of iterable) {
    items.push(item);
  }
  return items;
}

/** An unsigned Entra ID style token, which --oauth basic accepts (it checks everything but the signature). */
function basicToken() {
  const now = Math.floor(Date.now() / 1000);
  const part = (value) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({
    aud: "https://storage.azure.com", iss: "https://sts.windows.net/trestle-test/", nbf: now - 60, exp: now + 3600,
  })}.`;
}

describe("host-style URLs over HTTPS", () => {
  const tableName = `hostjs${Date.now().toString(36)}`;
  let service;
  let table;
  before(async () => {
    service = TableServiceClient.fromConnectionString(
      `DefaultEndpointsProtocol=https;AccountName=${accountName};AccountKey=${accountKey};EndpointSuffix=${suffix}`,
      options);
    assert.equal(service.url, endpoint);
    await service.createTable(tableName);
    table = TableClient.fromConnectionString(
      `DefaultEndpointsProtocol=https;AccountName=${accountName};AccountKey=${accountKey};EndpointSuffix=${suffix}`,
      tableName, options);
  });
  after(async () => {
    await service.deleteTable(tableName);
    agent.destroy();
  });

  test("entities, a transaction and a filtered query", async () => {
    await table.createEntity({ partitionKey: "p", rowKey: "00", n: 0 });
    await table.submitTransaction(
      Array.from({ length: 10 }, (_, i) => ["upsert", { partitionKey: "p", rowKey: `0${i}`.slice(-2), n: i }]));
    const found = await all(table.listEntities({ queryOptions: { filter: odata`n ge ${5}` } }));
    assert.deepEqual(found.map((e) => e.rowKey), ["05", "06", "07", "08", "09"]);
    const read = await table.getEntity("p", "03");
    await table.updateEntity({ partitionKey: "p", rowKey: "03", m: "x" }, "Merge", { etag: read.etag });
    assert.equal((await table.getEntity("p", "03")).m, "x");
    await table.deleteEntity("p", "00");
    const tables = await all(service.listTables({ queryOptions: { filter: odata`TableName eq ${tableName}` } }));
    assert.equal(tables.length, 1);
  });

  test("service properties at the host's root", async () => {
    const properties = await service.getProperties();
    await service.setProperties({
      ...properties,
      cors: [{ allowedOrigins: "https://app.trestle.test", allowedMethods: "GET", allowedHeaders: "*",
        exposedHeaders: "*", maxAgeInSeconds: 60 }],
    });
    assert.equal((await service.getProperties()).cors[0].allowedOrigins, "https://app.trestle.test");
  });

  test("service statistics, which the SDK sends to the secondary host it derives", async () => {
    // the SDK renames the host's first label to {account}-secondary; with path-style URLs there is none
    const stats = await service.getStatistics();
    assert.equal(stats.geoReplication.status, "live");
  });

  test("a table SAS through a SAS client and a SAS connection string", async () => {
    const sas = generateTableSas(tableName, credential, {
      permissions: { query: true, add: true, update: true }, expiresOn: inAnHour(),
    });
    const sasClient = new TableClient(endpoint, tableName, new AzureSASCredential(sas), options);
    await sasClient.createEntity({ partitionKey: "q", rowKey: "sas" });
    assert.equal((await sasClient.getEntity("q", "sas")).rowKey, "sas");
    const fromConnectionString = TableClient.fromConnectionString(
      `TableEndpoint=${endpoint};SharedAccessSignature=${sas}`, tableName, options);
    assert.ok((await all(fromConnectionString.listEntities())).length >= 10);
  });

  test("an account SAS lists tables", async () => {
    const sas = generateAccountSas(credential, {
      permissions: { read: true, list: true }, resourceTypes: "sco", expiresOn: inAnHour(),
    });
    const listed = await all(new TableServiceClient(endpoint, new AzureSASCredential(sas), options).listTables());
    assert.ok(listed.some((t) => t.name === tableName));
  });

  test("a token credential works over HTTPS", async () => {
    const tokenCredential = { getToken: async () => ({ token: basicToken(), expiresOnTimestamp: Date.now() + 3600_000 }) };
    const withToken = new TableClient(endpoint, tableName, tokenCredential, options);
    await withToken.createEntity({ partitionKey: "t", rowKey: "token" });
    assert.equal((await withToken.getEntity("t", "token")).rowKey, "token");
  });
});
