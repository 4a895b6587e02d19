package legate.acp.protocol;

/** One session mode an agent offers ({@code default}, {@code read-only}, …). */
public record SessionMode(String id, String name) {
}
