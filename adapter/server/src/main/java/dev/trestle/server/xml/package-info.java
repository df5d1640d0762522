/** The XML documents of the Table service: stored access policies, service properties and stats, parsed safely. */
package dev.trestle.server.xml;
