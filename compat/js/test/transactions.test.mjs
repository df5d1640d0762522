// Entity-group transactions through @azure/data-tables: mixes of actions, sub-responses, failures and rollback.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { TableTransaction } from "@azure/data-tables";
import { all, errorCode, expectError, newTable, restError, tableClient, uniqueTableName } from "./support.mjs";

describe("transactions", () => {
  let client;
  before(async () => {
    client = await newTable("txn");
  });
  after(async () => {
    await client.deleteTable();
  });

  test("creates: one sub-response per action, each with an etag and the row key", async () => {
    const transaction = new TableTransaction();
    for (let i = 0; i < 3; i++) {
      transaction.createEntity({ partitionKey: "create", rowKey: `r${i}`, i });
    }
    const result = await client.submitTransaction(transaction.actions);
    assert.equal(result.status, 202);
    assert.equal(result.subResponses.length, 3);
    for (const [i, sub] of result.subResponses.entries()) {
      assert.ok([201, 204].includes(sub.status), String(sub.status));
      assert.match(sub.etag, /^W\/"datetime'/);
      assert.equal(sub.rowKey, `r${i}`);
    }
    const stored = await client.getEntity("create", "r1");
    assert.equal(stored.etag, result.subResponses[1].etag);
  });

  test("a mix of every action type applies in order", async () => {
    await client.createEntity({ partitionKey: "mix", rowKey: "update", a: 1, b: 1 });
    await client.createEntity({ partitionKey: "mix", rowKey: "merge", a: 1, b: 1 });
    await client.createEntity({ partitionKey: "mix", rowKey: "delete" });
    await client.createEntity({ partitionKey: "mix", rowKey: "upsertMerge", a: 1 });
    await client.createEntity({ partitionKey: "mix", rowKey: "upsertReplace", a: 1 });
    const etag = (await client.getEntity("mix", "update")).etag;
    const result = await client.submitTransaction([
      ["create", { partitionKey: "mix", rowKey: "new", v: "created" }],
      ["update", { partitionKey: "mix", rowKey: "update", b: 2 }, "Replace", { etag }],
      ["update", { partitionKey: "mix", rowKey: "merge", b: 2 }, "Merge"],
      ["delete", { partitionKey: "mix", rowKey: "delete" }],
      ["upsert", { partitionKey: "mix", rowKey: "upsertMerge", b: 2 }, "Merge"],
      ["upsert", { partitionKey: "mix", rowKey: "upsertReplace", b: 2 }, "Replace"],
      ["upsert", { partitionKey: "mix", rowKey: "upsertNew", b: 2 }],
    ]);
    assert.equal(result.subResponses.length, 7);
    assert.deepEqual(result.subResponses.slice(1).map((s) => s.status), [204, 204, 204, 204, 204, 204]);
    const rows = Object.fromEntries((await all(client.listEntities({ queryOptions: { filter: "PartitionKey eq 'mix'" } })))
      .map((e) => [e.rowKey, e]));
    assert.equal(rows.new.v, "created");
    assert.equal(rows.update.a, undefined);
    assert.equal(rows.update.b, 2);
    assert.equal(rows.merge.a, 1);
    assert.equal(rows.merge.b, 2);
    assert.equal(rows.delete, undefined);
    assert.equal(rows.upsertMerge.a, 1);
    assert.equal(rows.upsertReplace.a, undefined);
    assert.equal(rows.upsertNew.b, 2);
  });

  test("a failing action rolls everything back and reports its index and code", async () => {
    const before1 = await client.createEntity({ partitionKey: "fail", rowKey: "existing", v: "original" });
    const transaction = new TableTransaction();
    transaction.createEntity({ partitionKey: "fail", rowKey: "a" });
    transaction.updateEntity({ partitionKey: "fail", rowKey: "existing", v: "changed" }, "Merge");
    transaction.upsertEntity({ partitionKey: "fail", rowKey: "b" });
    transaction.deleteEntity("fail", "missing");
    const error = await restError(client.submitTransaction(transaction.actions));
    assert.equal(error.statusCode, 404);
    assert.equal(error.code, "ResourceNotFound");
    assert.match(error.message, /^3:/);
    const remaining = await all(client.listEntities({ queryOptions: { filter: "PartitionKey eq 'fail'" } }));
    assert.deepEqual(remaining.map((e) => e.rowKey), ["existing"]);
    assert.equal(remaining[0].v, "original");
    assert.equal(remaining[0].etag, before1.etag);
  });

  test("a duplicate create fails with 409 EntityAlreadyExists at its index", async () => {
    await client.createEntity({ partitionKey: "dup", rowKey: "x" });
    const error = await restError(client.submitTransaction([
      ["create", { partitionKey: "dup", rowKey: "y" }],
      ["create", { partitionKey: "dup", rowKey: "x" }],
    ]));
    assert.equal(error.statusCode, 409);
    assert.equal(error.code, "EntityAlreadyExists");
    assert.match(error.message, /^1:/);
    await expectError(client.getEntity("dup", "y"), 404, "ResourceNotFound");
  });

  test("a stale etag fails with 412 UpdateConditionNotSatisfied", async () => {
    const created = await client.createEntity({ partitionKey: "etag", rowKey: "x", n: 1 });
    await client.updateEntity({ partitionKey: "etag", rowKey: "x", n: 2 }, "Merge");
    const error = await restError(client.submitTransaction([
      ["create", { partitionKey: "etag", rowKey: "other" }],
      ["update", { partitionKey: "etag", rowKey: "x", n: 3 }, "Replace", { etag: created.etag }],
    ]));
    assert.equal(error.statusCode, 412);
    assert.equal(error.code, "UpdateConditionNotSatisfied");
    assert.equal((await client.getEntity("etag", "x")).n, 2);
  });

  test("the same entity twice is 400 InvalidDuplicateRow", async () => {
    const error = await restError(client.submitTransaction([
      ["create", { partitionKey: "twice", rowKey: "x" }],
      ["upsert", { partitionKey: "twice", rowKey: "x" }],
    ]));
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, "InvalidDuplicateRow");
    assert.match(error.message, /^1:/);
  });

  test("100 actions are accepted; 101 are rejected with 400 InvalidInput", async () => {
    const hundred = [];
    for (let i = 0; i < 100; i++) {
      hundred.push(["create", { partitionKey: "hundred", rowKey: String(i).padStart(3, "0"), i }]);
    }
    const result = await client.submitTransaction(hundred);
    assert.equal(result.subResponses.length, 100);
    const more = [];
    for (let i = 0; i < 101; i++) {
      more.push(["create", { partitionKey: "more", rowKey: String(i).padStart(3, "0") }]);
    }
    const error = await restError(client.submitTransaction(more));
    assert.equal(error.statusCode, 400);
    assert.equal(errorCode(error), "InvalidInput");
    assert.equal((await all(client.listEntities({ queryOptions: { filter: "PartitionKey eq 'more'" } }))).length, 0);
  });

  test("a transaction on a missing table is 404 TableNotFound", async () => {
    const missing = tableClient(uniqueTableName("notable"));
    const error = await restError(missing.submitTransaction([["create", { partitionKey: "a", rowKey: "b" }]]));
    assert.equal(error.statusCode, 404);
    assert.equal(error.code, "TableNotFound");
  });

  test("a transaction body over 4 MiB is 413 RequestBodyTooLarge", async () => {
    const actions = [];
    for (let i = 0; i < 32; i++) {
      actions.push(["create", { partitionKey: "big", rowKey: `r${i}`, a: "a".repeat(32 * 1024), b: "b".repeat(32 * 1024),
        c: "c".repeat(32 * 1024), d: "d".repeat(32 * 1024) }]);
    }
    const error = await restError(client.submitTransaction(actions));
    assert.equal(error.statusCode, 413);
    assert.equal(errorCode(error), "RequestBodyTooLarge");
  });

  test("an invalid entity inside a transaction fails the whole transaction with 400", async () => {
    const error = await restError(client.submitTransaction([
      ["create", { partitionKey: "invalid", rowKey: "ok" }],
      ["create", { partitionKey: "invalid", rowKey: "bad", s: "x".repeat(32 * 1024 + 1) }],
    ]));
    assert.equal(error.statusCode, 400);
    assert.equal(error.code, "PropertyValueTooLarge");
    assert.match(error.message, /^1:/);
    await expectError(client.getEntity("invalid", "ok"), 404, "ResourceNotFound");
  });

  test("special characters in keys and values survive a transaction", async () => {
    const values = ["%D1%88%D0%B5%D0%BB%D0%BB%D1%8B", "%2B", "%1C", "\u001c", "Übermütige Kühe mögen Umlaute", "grave à et aigu é"];
    const keys = ["%percent", "O'Brien", "space key", "a+b", "comma,key", "ünï"];
    const result = await client.submitTransaction(keys.map((key, i) => ["create", { partitionKey: "%special", rowKey: key, v: values[i] }]));
    assert.deepEqual(result.subResponses.map((s) => s.status).every((s) => s === 201 || s === 204), true);
    for (const [i, key] of keys.entries()) {
      assert.equal((await client.getEntity("%special", key)).v, values[i]);
    }
    await client.submitTransaction(keys.map((key) => ["delete", { partitionKey: "%special", rowKey: key }]));
    assert.equal((await all(client.listEntities({ queryOptions: { filter: "PartitionKey eq '%special'" } }))).length, 0);
  });

  test("keys with single and doubled apostrophes: key-only upserts then deletes, in either order", async () => {
    const single = "apos'strophe";
    const double = "apos''strophe";
    const first = [[single, `${single}1`], [single, `${single}2`], [single, `${double}1`], [single, `${double}2`]];
    const second = [[double, `${double}1`], [double, `${double}2`], [double, `${single}1`], [double, `${single}2`]];
    for (const order of [[first, second], [second, first]]) {
      for (const group of order) {
        const result = await client.submitTransaction(group.map(([pk, rk]) => ["upsert", { partitionKey: pk, rowKey: rk }]));
        assert.deepEqual(result.subResponses.map((s) => s.status), [204, 204, 204, 204]);
        for (const [pk, rk] of group) {
          assert.equal((await client.getEntity(pk, rk)).rowKey, rk);
        }
      }
      for (const group of order) {
        const result = await client.submitTransaction(group.map(([pk, rk]) => ["delete", { partitionKey: pk, rowKey: rk }]));
        assert.equal(result.status, 202);
        for (const [pk, rk] of group) {
          await expectError(client.getEntity(pk, rk), 404, "ResourceNotFound");
        }
      }
    }
  });

  test("empty partition and row keys in a transaction", async () => {
    await client.submitTransaction([["create", { partitionKey: "", rowKey: "" }], ["create", { partitionKey: "", rowKey: "x" }]]);
    await client.submitTransaction([["delete", { partitionKey: "", rowKey: "" }], ["update", { partitionKey: "", rowKey: "x", v: 1 }]]);
    assert.equal((await client.getEntity("", "x")).v, 1);
  });

  test("etags from a failed transaction are not changed", async () => {
    const kept = await client.createEntity({ partitionKey: "keep", rowKey: "x", v: 1 });
    await restError(client.submitTransaction([
      ["update", { partitionKey: "keep", rowKey: "x", v: 2 }],
      ["create", { partitionKey: "keep", rowKey: "x" }],
    ]));
    const after = await client.getEntity("keep", "x");
    assert.equal(after.v, 1);
    assert.equal(after.etag, kept.etag);
  });
});
