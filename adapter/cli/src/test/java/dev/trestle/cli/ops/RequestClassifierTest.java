package dev.trestle.cli.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RequestClassifierTest {

  @ParameterizedTest(name = "{0} {1} ?{2} if-match={3} -> {4}")
  @CsvSource(nullValues = "-", delimiter = '|', quoteCharacter = '"', value = {
      "GET | /devstoreaccount1/Tables | - | false | QueryTables",
      "POST | /devstoreaccount1/Tables | - | false | CreateTable",
      "DELETE | /devstoreaccount1/Tables('orders') | - | false | DeleteTable",
      "GET | /devstoreaccount1/Tables('orders') | - | false | GetTable",
      "POST | /devstoreaccount1/$batch | - | false | Batch",
      "GET | /devstoreaccount1/orders() | $filter=a eq 1 | false | QueryEntities",
      "GET | /devstoreaccount1/orders | - | false | QueryEntities",
      "POST | /devstoreaccount1/orders | - | false | InsertEntity",
      "GET | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | GetEntity",
      "PUT | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | UpdateEntity",
      "PUT | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | InsertOrReplaceEntity",
      "MERGE | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | MergeEntity",
      "PATCH | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | false | InsertOrMergeEntity",
      "DELETE | /devstoreaccount1/orders(PartitionKey='a',RowKey='b') | - | true | DeleteEntity",
      "GET | /devstoreaccount1/orders | comp=acl | false | GetTableAcl",
      "PUT | /devstoreaccount1/orders | comp=acl | false | SetTableAcl",
      "GET | /devstoreaccount1/ | restype=service&comp=properties | false | GetServiceProperties",
      "PUT | /devstoreaccount1 | restype=service&comp=properties | false | SetServiceProperties",
      "GET | /devstoreaccount1/ | restype=service&comp=stats | false | GetServiceStats",
      "OPTIONS | /devstoreaccount1/orders() | - | false | Preflight",
      "GET | /devstoreaccount1/a/b | - | false | Other",
      "GET | / | - | false | Other",
  })
  void namesTheTableOperation(String method, String path, String query, boolean ifMatch, String expected) {
    assertThat(RequestClassifier.classify(method, path, query, ifMatch)).isEqualTo(expected);
  }
}
