// The Azure Tables SDK for JavaScript against Trestle, unchanged: only the connection string points at it.
// Run:  TRESTLE_CONNECTION_STRING="..." node sample.mjs   (default: ./trestle serve on 127.0.0.1:10002)
import { TableClient, TableServiceClient, odata } from "@azure/data-tables";

const DEV_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
const connectionString = process.env.TRESTLE_CONNECTION_STRING ??
  `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${DEV_KEY};` +
  "TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;";
// Plain http needs this switch in the JavaScript SDK (the emulator shortcut sets it by itself).
const options = { allowInsecureConnection: true };

const tableName = `jssample${Date.now()}`;
const service = TableServiceClient.fromConnectionString(connectionString, options);
const orders = TableClient.fromConnectionString(connectionString, tableName, options);
const customer = "customer-42";

await service.createTable(tableName);
try {
  // Insert one entity: numbers without a type become Int32 or Double, as in Azure.
  await orders.createEntity({ partitionKey: customer, rowKey: "order-000", product: "Trestle", quantity: 3, shipped: false });

  // A batch (entity-group transaction): ten more orders of the same partition, all or nothing.
  const actions = [];
  for (let i = 1; i <= 10; i++) {
    actions.push(["create", { partitionKey: customer, rowKey: `order-${String(i).padStart(3, "0")}`, product: "Trestle", quantity: i, shipped: false }]);
  }
  await orders.submitTransaction(actions);

  // Query with a filter, four entities per page; the SDK follows the continuation tokens.
  let pages = 0;
  let matched = 0;
  const filter = odata`PartitionKey eq ${customer} and quantity ge ${2}`;
  for await (const page of orders.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize: 4 })) {
    pages++;
    matched += page.length;
  }

  // Optimistic concurrency: an update with a stale ETag is refused with 412.
  const stale = await orders.getEntity(customer, "order-000");
  const fresh = await orders.getEntity(customer, "order-000");
  await orders.updateEntity({ ...fresh, shipped: true }, "Replace", { etag: fresh.etag });
  let staleRejected = false;
  try {
    await orders.updateEntity({ ...stale, quantity: 99 }, "Replace", { etag: stale.etag });
  } catch (error) {
    staleRejected = error.statusCode === 412;
  }
  const final = await orders.getEntity(customer, "order-000");

  const summary = { inserted: 11, matched, pages, staleRejected, shipped: final.shipped, quantity: final.quantity };
  console.log(`Queried ${matched} orders in ${pages} pages; stale update rejected: ${staleRejected}`);
  console.log(JSON.stringify(summary));
} finally {
  await service.deleteTable(tableName);
}
