// Queries through @azure/data-tables: filters of every type and spelling the SDKs and users write, $select, paging.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { odata } from "@azure/data-tables";
import { all, expectError, newTable, raw } from "./support.mjs";

function query(client, filter, options = {}) {
  return all(client.listEntities({ queryOptions: { filter, ...options } }));
}

async function pages(client, filter, maxPageSize) {
  const sizes = [];
  const rows = [];
  for await (const page of client.listEntities({ queryOptions: { filter } }).byPage({ maxPageSize })) {
    sizes.push(page.length);
    rows.push(...page);
  }
  return { sizes, rows };
}

describe("queries", () => {
  let client;
  before(async () => {
    client = await newTable("qry");
    const batch = [];
    for (let i = 0; i < 10; i++) {
      batch.push(["create", {
        partitionKey: "numbers",
        rowKey: String(i).padStart(2, "0"),
        number: i,
        odd: i % 2 === 1,
        ratio: i + 0.5,
        big: { value: String(BigInt(i - 5) * 1000000000000n), type: "Int64" },
        name: `name ${i}`,
        when: new Date(Date.UTC(2020, 0, 1 + i)),
      }]);
    }
    await client.submitTransaction(batch);
    await client.createEntity({ partitionKey: "double", rowKey: "five", value: { value: 5, type: "Double" } });
    await client.createEntity({ partitionKey: "double", rowKey: "fraction", value: 54.321 });
    await client.createEntity({ partitionKey: "guid", rowKey: "1", g: { value: "11111111-1111-1111-1111-111111111111", type: "Guid" } });
    await client.createEntity({ partitionKey: "guid", rowKey: "2", g: { value: "22222222-2222-2222-2222-222222222222", type: "Guid" } });
    await client.createEntity({ partitionKey: "guid", rowKey: "3", g: { value: "33333333-3333-3333-3333-333333333333", type: "Guid" } });
    await client.createEntity({ partitionKey: "binary", rowKey: "data", b: new TextEncoder().encode("binaryData") });
    await client.createEntity({ partitionKey: "binary", rowKey: "other", b: new Uint8Array([1, 2, 3]) });
    await client.createEntity({ partitionKey: "strings", rowKey: "1", foo: "TestFoo", _under: "bar" });
    await client.createEntity({ partitionKey: "strings", rowKey: "2", foo: "" });
    await client.createEntity({ partitionKey: "strings", rowKey: "3" });
    await client.createEntity({ partitionKey: "strings", rowKey: "4", foo: "it's \"quoted\" `tick` %2B +" });
    await client.createEntity({ partitionKey: "", rowKey: "emptypk", foo: "x" });
    await client.createEntity({ partitionKey: "int64", rowKey: "a", v: { value: "1234", type: "Int64" } });
    await client.createEntity({ partitionKey: "int64", rowKey: "b", v: { value: "-1234", type: "Int64" } });
    await client.createEntity({ partitionKey: "int64", rowKey: "c", v: { value: "9223372036854775807", type: "Int64" } });
    await client.createEntity({ partitionKey: "int64", rowKey: "d", v: { value: "12345", type: "Int64" } });
  });
  after(async () => {
    await client.deleteTable();
  });

  test("no filter lists everything ordered by PartitionKey then RowKey", async () => {
    const rows = await all(client.listEntities());
    const keys = rows.map((e) => [e.partitionKey, e.rowKey]);
    const sorted = [...keys].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    assert.deepEqual(keys, sorted);
    assert.equal(rows.length, 26);
  });

  test("an empty filter string lists everything", async () => {
    assert.equal((await query(client, "")).length, 26);
  });

  test("the odata helper quotes and escapes strings", async () => {
    assert.equal((await query(client, odata`PartitionKey eq ${"numbers"} and number ge ${7}`)).length, 3);
    const quoted = await query(client, odata`foo eq ${"it's \"quoted\" `tick` %2B +"}`);
    assert.deepEqual(quoted.map((e) => e.rowKey), ["4"]);
    assert.deepEqual((await query(client, odata`PartitionKey eq ${""}`)).map((e) => e.rowKey), ["emptypk"]);
  });

  test("whitespace and parentheses in every SDK's spelling", async () => {
    const tomorrow = new Date(Date.now() + 86400000).toISOString();
    for (const filter of [
      `PartitionKey eq 'numbers' and number lt 11`,
      `PartitionKey eq 'numbers' and number lt 11 and Timestamp lt datetime'${tomorrow}'`,
      `(PartitionKey eq 'numbers') and (number lt 12) and (Timestamp lt datetime'${tomorrow}')`,
      `(PartitionKey eq 'numbers')and (number lt 12) and(Timestamp lt datetime'${tomorrow}')`,
      `(PartitionKey eq 'numbers')and(number lt 12)and(Timestamp lt datetime'${tomorrow}')`,
      `( PartitionKey  eq  'numbers' )  and  ( number lt 12 )`,
      `((PartitionKey eq 'numbers'))`,
    ]) {
      assert.equal((await query(client, filter)).length, 10, filter);
    }
    assert.equal((await query(client, `PartitionKey eq 'numbers' and number gt 11`)).length, 0);
  });

  test("booleans, including a space before the closing parenthesis", async () => {
    assert.equal((await query(client, `(PartitionKey eq 'numbers')and(odd eq true )`)).length, 5);
    assert.equal((await query(client, `(PartitionKey eq 'numbers') and (odd eq false)`)).length, 5);
    assert.equal((await query(client, `PartitionKey eq 'numbers' and odd ne true`)).length, 5);
  });

  test("boolean literals as operands of and/or (the .NET SDK's PredicateBuilder output)", async () => {
    const rows = await query(client,
      `(true and RowKey eq '01') and ((false or PartitionKey eq 'numbers') or PartitionKey eq 'x') or PartitionKey eq 'guid'`);
    assert.deepEqual(rows.map((e) => `${e.partitionKey}/${e.rowKey}`), ["guid/1", "guid/2", "guid/3", "numbers/01"]);
  });

  test("true and false in any case", async () => {
    assert.equal((await query(client, `(PartitionKey eq 'numbers')and(odd eq True )`)).length, 5);
    assert.equal((await query(client, `(PartitionKey eq 'numbers') and (odd eq FALSE)`)).length, 5);
    assert.equal((await query(client, `PartitionKey eq 'numbers' and (odd eq faLsE)`)).length, 5);
  });

  test("not", async () => {
    const rows = await query(client, `PartitionKey eq 'numbers' and not (number lt 8)`);
    assert.deepEqual(rows.map((e) => e.number), [8, 9]);
    const keys = await query(client, `not (PartitionKey lt 'numbers')`);
    assert.ok(keys.every((e) => e.partitionKey >= "numbers"));
    assert.equal(keys.length, 14);
  });

  test("Int32 comparisons and an Int32 literal out of range", async () => {
    assert.deepEqual((await query(client, `number ge 3 and number le 5`)).map((e) => e.number), [3, 4, 5]);
    assert.deepEqual((await query(client, `number eq -1`)).length, 0);
    await expectError(query(client, `number eq 5454161346626`), 400);
  });

  test("Int64 comparisons with the L suffix, negative values and the extremes", async () => {
    const v = async (filter) => (await query(client, `PartitionKey eq 'int64' and ${filter}`)).map((e) => e.rowKey);
    assert.deepEqual(await v(`v gt 1233L and v lt 1235L`), ["a"]);
    assert.deepEqual(await v(`v lt -1233L and v gt -1235L`), ["b"]);
    assert.deepEqual(await v(`v gt -1235L`), ["a", "b", "c", "d"]);
    assert.deepEqual(await v(`v eq 9223372036854775807L`), ["c"]);
    assert.deepEqual(await v(`v ge -9223372036854775808L`), ["a", "b", "c", "d"]);
    assert.deepEqual(await v(`v eq 12345L`), ["d"]);
    assert.deepEqual((await query(client, `big lt 0L`)).map((e) => e.number), [0, 1, 2, 3, 4]);
    assert.deepEqual((await query(client, `big eq 2000000000000L`)).map((e) => e.number), [7]);
    // An Int32 literal compares with Int64 properties too; an Int64 literal does not match Int32 properties.
    assert.deepEqual(await v(`v gt 1233 and v lt 1235`), ["a"]);
    assert.deepEqual((await query(client, `PartitionKey eq 'numbers' and number eq 3L`)).length, 0);
  });

  test("Double comparisons with integral and fractional literals", async () => {
    const v = async (filter) => (await query(client, `PartitionKey eq 'double' and ${filter}`)).map((e) => e.rowKey);
    assert.deepEqual(await v(`value eq 5.0`), ["five"]);
    assert.deepEqual(await v(`(value eq 54.321 )`), ["fraction"]);
    assert.deepEqual(await v(`value gt 53.321`), ["fraction"]);
    assert.deepEqual(await v(`value lt 57.321`), ["five", "fraction"]);
    assert.deepEqual((await query(client, `ratio ge 8.5`)).map((e) => e.number), [8, 9]);
    // An Int32 literal compares with Double properties too (as Azure answers Storage Explorer's queries).
    assert.deepEqual(await v(`(value eq 5 )`), ["five"]);
    assert.deepEqual(await v(`value gt 4`), ["five", "fraction"]);
    assert.deepEqual(await v(`value lt 6`), ["five"]);
    assert.deepEqual(await v(`value eq 5L`), []);
    assert.equal((await query(client, `PartitionKey eq 'double'`))[0].value, 5);
  });

  test("DateTime comparisons, including the odata helper with a Date", async () => {
    const rows = await query(client, odata`when ge ${new Date(Date.UTC(2020, 0, 8))}`);
    assert.deepEqual(rows.map((e) => e.number), [7, 8, 9]);
    const between = await query(client, `when gt datetime'2020-01-02T00:00:00Z' and when lt datetime'2020-01-04T00:00:00.0000000Z'`);
    assert.deepEqual(between.map((e) => e.number), [2]);
    assert.equal((await query(client, `Timestamp gt datetime'2000-01-01T00:00:00Z'`)).length, 26);
  });

  test("Guid comparisons: eq, ne, lt, ge, gt; a quoted string does not match a Guid", async () => {
    const v = async (filter) => (await query(client, `PartitionKey eq 'guid' and ${filter}`)).map((e) => e.rowKey);
    const two = "22222222-2222-2222-2222-222222222222";
    assert.deepEqual(await v(`g eq guid'${two}'`), ["2"]);
    assert.deepEqual(await v(`g ne guid'${two}'`), ["1", "3"]);
    assert.deepEqual(await v(`g lt guid'${two}'`), ["1"]);
    assert.deepEqual(await v(`g ge guid'${two}'`), ["2", "3"]);
    assert.deepEqual(await v(`g gt guid'${two}'`), ["3"]);
    assert.deepEqual(await v(`g eq '${two}'`), []);
  });

  test("Binary comparisons with X'..' and binary'..'", async () => {
    const hex = Buffer.from("binaryData").toString("hex");
    assert.deepEqual((await query(client, `b eq X'${hex}'`)).map((e) => e.rowKey), ["data"]);
    assert.deepEqual((await query(client, `b eq binary'${hex.toUpperCase()}'`)).map((e) => e.rowKey), ["data"]);
    assert.deepEqual((await query(client, `PartitionKey eq 'binary' and b ne X'010203'`)).map((e) => e.rowKey), ["data"]);
  });

  test("a missing property never matches, not even with ne", async () => {
    const rows = await query(client, `PartitionKey eq 'strings' and foo ne ''`);
    assert.deepEqual(rows.map((e) => e.rowKey), ["1", "4"]);
  });

  test("property names starting with an underscore", async () => {
    assert.deepEqual((await query(client, `_under eq 'bar'`)).map((e) => e.rowKey), ["1"]);
  });

  test("a type mismatch between property and literal does not match", async () => {
    assert.equal((await query(client, `number eq '3'`)).length, 0);
    assert.equal((await query(client, `name eq 3`)).length, 0);
  });

  test("invalid filters are 400", async () => {
    for (const filter of [
      "(1 === 1)", "(1)", "(1 1 1)", `("a" eq "a")`, `(PartitionKey eq 'numbers' eq 5.0)`,
      `(PartitionKey eq eq 'numbers') and (number eq 5)`, `(PartitionKey eq 'numbers') and and (number gt 4)`,
      `PartitionKey eq 'unterminated`, `number eq`, `startswith(PartitionKey, 'n')`,
    ]) {
      await expectError(query(client, filter), 400);
    }
  });

  test("$select returns only the selected properties (and the etag)", async () => {
    const rows = await all(client.listEntities({
      queryOptions: { filter: `PartitionKey eq 'numbers' and number eq 3`, select: ["number", "name"] },
    }));
    assert.equal(rows.length, 1);
    assert.equal(rows[0].number, 3);
    assert.equal(rows[0].name, "name 3");
    assert.equal("ratio" in rows[0], false);
    assert.equal("odd" in rows[0], false);
    assert.ok(rows[0].etag);
    const single = await client.getEntity("numbers", "03", { queryOptions: { select: ["odd"] } });
    assert.equal(single.odd, true);
    assert.equal("number" in single, false);
  });

  test("paging: maxPageSize sets the page size and continuation tokens resume", async () => {
    const { sizes, rows } = await pages(client, `PartitionKey eq 'numbers'`, 4);
    assert.deepEqual(sizes, [4, 4, 2]);
    assert.deepEqual(rows.map((e) => e.number), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const first = (await client.listEntities().byPage({ maxPageSize: 5 }).next()).value;
    assert.equal(first.length, 5);
    assert.ok(first.continuationToken);
    const second = (await client.listEntities().byPage({ maxPageSize: 5, continuationToken: first.continuationToken }).next()).value;
    assert.equal(second.length, 5);
    const everything = await all(client.listEntities());
    assert.deepEqual([...first, ...second].map((e) => `${e.partitionKey}/${e.rowKey}`),
      everything.slice(0, 10).map((e) => `${e.partitionKey}/${e.rowKey}`));
  });

  test("continuation tokens carry keys outside the Basic Multilingual Plane", async () => {
    const other = await newTable("bmp");
    try {
      await other.createEntity({ partitionKey: "𤭢PK1", rowKey: "𐐷RK1" });
      await other.createEntity({ partitionKey: "𤭢PK1", rowKey: "𐐷RK2" });
      await other.createEntity({ partitionKey: "𤭢PK2", rowKey: "𐐷RK1" });
      const { sizes, rows } = await pages(other, undefined, 1);
      assert.deepEqual(rows.map((e) => `${e.partitionKey}/${e.rowKey}`), ["𤭢PK1/𐐷RK1", "𤭢PK1/𐐷RK2", "𤭢PK2/𐐷RK1"]);
      assert.ok(sizes.every((n) => n <= 1));
    } finally {
      await other.deleteTable();
    }
  });

  test("101 entities in 101 partitions page completely at 20 per page", async () => {
    const other = await newTable("many");
    try {
      for (let i = 0; i < 101; i++) {
        await other.createEntity({ partitionKey: `A${String(i).padStart(3, "0")}`, rowKey: "", number: i });
      }
      const { rows } = await pages(other, undefined, 20);
      assert.equal(rows.length, 101);
      assert.deepEqual(rows.map((e) => e.number), [...Array(101).keys()]);
    } finally {
      await other.deleteTable();
    }
  });

  test("without a page size the service answers at most 1000 entities a page and the SDK follows", async () => {
    const other = await newTable("thousand");
    try {
      for (let b = 0; b < 11; b++) {
        await other.submitTransaction(Array.from({ length: 100 },
          (_, i) => ["create", { partitionKey: `p${String(b).padStart(2, "0")}`, rowKey: String(i).padStart(3, "0"), v: i }]));
      }
      const first = (await other.listEntities().byPage().next()).value;
      assert.equal(first.length, 1000);
      assert.ok(first.continuationToken);
      assert.equal((await all(other.listEntities())).length, 1100);
    } finally {
      await other.deleteTable();
    }
  });

  test("keys up to 512 characters (1 KiB of UTF-16); longer is KeyValueTooLarge", async () => {
    const other = await newTable("keylen");
    try {
      await other.createEntity({ partitionKey: "é".repeat(512), rowKey: "k".repeat(512) });
      await expectError(other.createEntity({ partitionKey: "p", rowKey: "k".repeat(513) }), 400, "KeyValueTooLarge");
      await expectError(other.createEntity({ partitionKey: "é".repeat(513), rowKey: "r" }), 400, "KeyValueTooLarge");
    } finally {
      await other.deleteTable();
    }
  });

  test("paging over a filter that skips rows and crosses partitions", async () => {
    const { rows } = await pages(client, `foo ne 'nothing'`, 2);
    assert.deepEqual(rows.map((e) => `${e.partitionKey}/${e.rowKey}`), ["/emptypk", "strings/1", "strings/2", "strings/4"]);
  });

  test("$top over the raw API: page size, continuation headers, and limits", async () => {
    const page = await raw("GET", `${client.tableName}()?$top=3&$filter=${encodeURIComponent("PartitionKey eq 'numbers'")}`, {
      headers: { Accept: "application/json;odata=nometadata" },
    });
    assert.equal(page.status, 200);
    assert.equal(page.json.value.length, 3);
    assert.equal(page.headers.get("x-ms-continuation-nextpartitionkey") !== null, true);
    for (const top of ["-1", "1001", "abc"]) {
      const bad = await raw("GET", `${client.tableName}()?$top=${top}`, { headers: { Accept: "application/json" } });
      assert.equal(bad.status, 400, `$top=${top}`);
    }
    // $top=0 is an empty page without continuation, as on Azure (Azurite issue 1428)
    const none = await raw("GET", `${client.tableName}()?$top=0`, { headers: { Accept: "application/json;odata=nometadata" } });
    assert.equal(none.status, 200);
    assert.equal(none.json.value.length, 0);
    assert.equal(none.headers.get("x-ms-continuation-nextpartitionkey"), null);
  });

  test("a filter on a single entity by keys returns it, or an empty page when missing", async () => {
    assert.equal((await query(client, odata`PartitionKey eq ${"numbers"} and RowKey eq ${"05"}`))[0].number, 5);
    assert.equal((await query(client, odata`PartitionKey eq ${"numbers"} and RowKey eq ${"99"}`)).length, 0);
  });

  test("string range queries on keys (prefix search)", async () => {
    const rows = await query(client, `PartitionKey eq 'numbers' and RowKey ge '03' and RowKey lt '06'`);
    assert.deepEqual(rows.map((e) => e.rowKey), ["03", "04", "05"]);
  });
});
