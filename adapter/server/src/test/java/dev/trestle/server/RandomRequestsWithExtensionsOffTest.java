package dev.trestle.server;

import dev.trestle.testing.ExtensionsOff;

/**
 * Every test of {@link RandomRequestsTest} against a service whose extensions are switched off:
 * standard requests are answered the same either way.
 */
@ExtensionsOff
class RandomRequestsWithExtensionsOffTest extends RandomRequestsTest {}
