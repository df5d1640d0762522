package dev.trestle.server.auth.internal;

/** Shared Key (and anonymous access where enabled): the account owner may do everything. */
public enum FullAccessGrant implements Grant {
  INSTANCE;

  @Override
  public void authorize(Operation operation, String tableName) {}
}
