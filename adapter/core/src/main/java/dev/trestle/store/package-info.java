/**
 * The SQL store behind the Table API: schema migrations, and (in {@code internal}) the JDBC
 * implementation.
 */
package dev.trestle.store;
