/**
 * What the server tells embedders about each request it answers: {@link
 * dev.trestle.server.events.RequestListener}.
 */
package dev.trestle.server.events;
