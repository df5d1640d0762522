package dev.trestle.server;

import dev.trestle.testing.RelaxedTransactionsOn;

/**
 * Every test of {@link BatchTest} against a service with relaxed transactions enabled: a standard
 * {@code $batch} keeps every Azure limit and error either way.
 */
@RelaxedTransactionsOn
class BatchWithRelaxedTransactionsTest extends BatchTest {}
