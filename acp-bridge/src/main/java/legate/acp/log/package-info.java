/**
 * The bridge's JSON Lines logs: {@link legate.acp.log.BridgeLogs} writes {@code calls.jsonl} and
 * {@code work.jsonl}, rotated by size before a write, never failing the bridge.
 */
package legate.acp.log;
