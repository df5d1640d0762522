package dev.trestle.server.internal.endpoints;

import dev.trestle.TableService;
import dev.trestle.server.auth.internal.Grant;
import java.time.Clock;

/**
 * What every operation of one request needs besides the request: its account's tables and its
 * rights.
 */
public record CallContext(TableService tables, Grant grant, String requestId, Clock clock) {}
