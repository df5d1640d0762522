package dev.trestle.server.internal.routing;

/** The resource a request addresses, below the account segment of a path-style URL. */
public sealed interface Route {

  /** {@code /{account}} or {@code /{account}/}: service properties and stats. */
  record ServiceRoot() implements Route {}

  /** {@code /Tables}: list or create tables. */
  record TableCollection() implements Route {}

  /** {@code /Tables('name')}: get or delete one table. */
  record TableResource(String tableName) implements Route {}

  /**
   * {@code /name} or {@code /name()}: query or insert entities, or the table's ACL with {@code
   * comp=acl}.
   */
  record EntitySet(String tableName) implements Route {}

  /** {@code /name(PartitionKey='pk',RowKey='rk')}: one entity. */
  record EntityResource(String tableName, String partitionKey, String rowKey) implements Route {}

  /**
   * A Trestle extension, never sent by an Azure SDK: {@code /name()/$count} counts the entity set,
   * {@code /name(PartitionKey='pk',RowKey='rk')/$count} the one entity (0 or 1). Keys are null for
   * the set.
   */
  record EntityCount(String tableName, String partitionKey, String rowKey) implements Route {}

  /** A Trestle extension: {@code /name()/$changes}, the table's change feed. */
  record ChangeFeed(String tableName) implements Route {}

  /** {@code /$batch}: an entity-group transaction. */
  record Batch() implements Route {}
}
