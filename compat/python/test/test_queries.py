"""Queries through the Python SDK: parameterised filters on every type, $select, paging."""
import datetime
import unittest
import uuid

from azure.core.exceptions import HttpResponseError
from azure.data.tables import EdmType, EntityProperty

from support import new_table

GUID = uuid.UUID("0f0e0d0c-0b0a-4908-8706-050403020100")
BASE = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


class Queries(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.table = new_table("query")
        operations = []
        for i in range(20):
            operations.append(
                (
                    "create",
                    {
                        "PartitionKey": "p",
                        "RowKey": f"r{i:02d}",
                        "n": i,
                        "big": EntityProperty(2**40 + i, EdmType.INT64),
                        "ratio": i / 4,
                        "even": i % 2 == 0,
                        "when": BASE + datetime.timedelta(days=i),
                        "id": GUID if i == 7 else uuid.uuid4(),
                        "blob": bytes([i]),
                        "name": f"item-{i:02d}",
                    },
                )
            )
        cls.table.submit_transaction(operations)

    @classmethod
    def tearDownClass(cls):
        cls.table.delete_table()

    def keys(self, query_filter, **parameters):
        entities = self.table.query_entities(query_filter, parameters=parameters or None)
        return [e["RowKey"] for e in entities]

    def test_int32_comparisons_with_parameters(self):
        self.assertEqual(self.keys("n ge @low and n lt @high", low=5, high=8), ["r05", "r06", "r07"])

    def test_int64_comparisons(self):
        # a Python int parameter beyond 32 bits becomes an Int64 literal (with the L suffix)
        self.assertEqual(self.keys("big gt @v", v=2**40 + 17), ["r18", "r19"])
        self.assertEqual(self.keys("big eq 1099511627778L"), ["r02"])

    def test_double_boolean_and_string_comparisons(self):
        self.assertEqual(self.keys("ratio eq @r", r=1.25), ["r05"])
        self.assertEqual(len(self.keys("even eq @e", e=True)), 10)
        self.assertEqual(self.keys("name eq @n", n="item-03"), ["r03"])
        self.assertEqual(self.keys("name ge 'item-18'"), ["r18", "r19"])

    def test_datetime_guid_and_binary_comparisons(self):
        self.assertEqual(
            self.keys("when lt @t", t=BASE + datetime.timedelta(days=2)), ["r00", "r01"]
        )
        self.assertEqual(self.keys("id eq @g", g=GUID), ["r07"])
        self.assertEqual(self.keys("blob eq X'0c'"), ["r12"])

    def test_a_string_literal_does_not_match_a_number_and_a_missing_property_never_matches(self):
        self.assertEqual(self.keys("n eq '3'"), [])
        self.assertEqual(self.keys("missing ne 1"), [])

    def test_keys_and_not(self):
        self.assertEqual(
            self.keys("PartitionKey eq 'p' and RowKey gt 'r17' and not (RowKey eq 'r18')"), ["r19"]
        )

    def test_select_returns_only_the_selected_properties(self):
        entity = next(iter(self.table.query_entities("RowKey eq 'r04'", select=["n", "name"])))
        self.assertEqual(dict(entity), {"n": 4, "name": "item-04"})

    def test_pages_of_a_given_size_resume_from_continuation_tokens(self):
        pages = self.table.list_entities(results_per_page=6).by_page()
        sizes = [len(list(page)) for page in pages]
        self.assertEqual(sizes, [6, 6, 6, 2])
        first = self.table.query_entities("n ge 3", results_per_page=5).by_page()
        next(first)
        token = first.continuation_token
        self.assertIsNotNone(token)
        resumed = self.table.query_entities("n ge 3", results_per_page=5).by_page(
            continuation_token=token
        )
        self.assertEqual([e["RowKey"] for e in next(resumed)], ["r08", "r09", "r10", "r11", "r12"])

    def test_an_invalid_filter_is_400(self):
        with self.assertRaises(HttpResponseError) as raised:
            list(self.table.query_entities("n eq"))
        self.assertEqual(raised.exception.status_code, 400)


class ManyPartitions(unittest.TestCase):
    def test_entities_in_many_partitions_page_completely(self):
        table = new_table("parts")
        try:
            for i in range(45):
                table.create_entity({"PartitionKey": f"p{i:03d}", "RowKey": "r", "i": i})
            pages = list(table.list_entities(results_per_page=10).by_page())
            self.assertEqual(len(pages), 5)
            self.assertEqual(
                [e["i"] for page in pages for e in page], list(range(45))
            )
        finally:
            table.delete_table()


if __name__ == "__main__":
    unittest.main()
