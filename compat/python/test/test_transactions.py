"""Entity-group transactions through the Python SDK."""
import unittest

from azure.core import MatchConditions
from azure.data.tables import TableTransactionError, UpdateMode

from support import code_of, new_table


class Transactions(unittest.TestCase):
    def setUp(self):
        self.table = new_table("batch")

    def tearDown(self):
        self.table.delete_table()

    def test_a_mix_of_every_action_applies_in_order(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "update", "a": 1, "b": 1})
        self.table.create_entity({"PartitionKey": "p", "RowKey": "merge", "a": 1})
        self.table.create_entity({"PartitionKey": "p", "RowKey": "delete"})
        results = self.table.submit_transaction(
            [
                ("create", {"PartitionKey": "p", "RowKey": "new", "v": 1}),
                ("update", {"PartitionKey": "p", "RowKey": "update", "c": 3}, {"mode": UpdateMode.REPLACE}),
                ("update", {"PartitionKey": "p", "RowKey": "merge", "c": 3}, {"mode": UpdateMode.MERGE}),
                ("upsert", {"PartitionKey": "p", "RowKey": "upserted", "v": 2}),
                ("delete", {"PartitionKey": "p", "RowKey": "delete"}),
            ]
        )
        self.assertEqual(len(results), 5)
        self.assertTrue(all("etag" in r for r in results[:4]))
        rows = {e["RowKey"]: e for e in self.table.list_entities()}
        self.assertEqual(sorted(rows), ["merge", "new", "update", "upserted"])
        self.assertNotIn("a", rows["update"])
        self.assertEqual((rows["merge"]["a"], rows["merge"]["c"]), (1, 3))

    def test_a_failing_action_rolls_everything_back_and_names_its_index(self):
        self.table.create_entity({"PartitionKey": "p", "RowKey": "exists"})
        with self.assertRaises(TableTransactionError) as raised:
            self.table.submit_transaction(
                [
                    ("create", {"PartitionKey": "p", "RowKey": "a"}),
                    ("create", {"PartitionKey": "p", "RowKey": "b"}),
                    ("create", {"PartitionKey": "p", "RowKey": "exists"}),
                ]
            )
        self.assertEqual(raised.exception.index, 2)
        self.assertEqual(raised.exception.error_code, "EntityAlreadyExists")
        self.assertEqual([e["RowKey"] for e in self.table.list_entities()], ["exists"])

    def test_a_stale_etag_in_a_transaction_is_412(self):
        created = self.table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
        self.table.update_entity({"PartitionKey": "p", "RowKey": "r", "v": 2})
        with self.assertRaises(TableTransactionError) as raised:
            self.table.submit_transaction(
                [
                    (
                        "update",
                        {"PartitionKey": "p", "RowKey": "r", "v": 3},
                        {"etag": created["etag"], "match_condition": MatchConditions.IfNotModified},
                    )
                ]
            )
        self.assertEqual(raised.exception.error_code, "UpdateConditionNotSatisfied")
        self.assertEqual(self.table.get_entity("p", "r")["v"], 2)

    def test_one_hundred_actions_are_accepted_and_one_more_is_refused(self):
        self.table.submit_transaction(
            [("create", {"PartitionKey": "p", "RowKey": f"r{i:03d}", "i": i}) for i in range(100)]
        )
        self.assertEqual(len(list(self.table.list_entities())), 100)
        with self.assertRaises(Exception) as raised:
            self.table.submit_transaction(
                [("upsert", {"PartitionKey": "q", "RowKey": f"r{i:03d}"}) for i in range(101)]
            )
        self.assertEqual(getattr(raised.exception, "status_code", 400), 400)
        self.assertEqual(len(list(self.table.query_entities("PartitionKey eq 'q'"))), 0)

    def test_actions_on_two_partitions_are_refused_by_the_sdk_before_sending(self):
        with self.assertRaises(ValueError):
            self.table.submit_transaction(
                [
                    ("create", {"PartitionKey": "p", "RowKey": "a"}),
                    ("create", {"PartitionKey": "q", "RowKey": "b"}),
                ]
            )
        self.assertEqual(list(self.table.list_entities()), [])

    def test_the_same_entity_twice_is_invalid_duplicate_row(self):
        with self.assertRaises(TableTransactionError) as raised:
            self.table.submit_transaction(
                [
                    ("create", {"PartitionKey": "p", "RowKey": "a"}),
                    ("upsert", {"PartitionKey": "p", "RowKey": "a"}),
                ]
            )
        self.assertEqual(raised.exception.error_code, "InvalidDuplicateRow")


class MissingTable(unittest.TestCase):
    def test_a_transaction_on_a_missing_table_is_table_not_found(self):
        from support import table_client, unique_table_name

        table = table_client(unique_table_name("missing"))
        with self.assertRaises(Exception) as raised:
            table.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "a"})])
        self.assertIn("TableNotFound", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
