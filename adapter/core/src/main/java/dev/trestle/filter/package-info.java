/** The OData {@code $filter} language: parser, syntax tree and in-memory reference evaluator. */
package dev.trestle.filter;
