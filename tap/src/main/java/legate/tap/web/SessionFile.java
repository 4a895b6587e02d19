package legate.tap.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import legate.tap.show.EventLine;
import legate.tap.show.ExchangeEvent;
import legate.wire.json.WireJson;

/**
 * A recorded session read back into events: either the tap's JSON Lines ({@code --log FILE}, or
 * the page's export) or a HAR 1.2 file. Which one is told from the content: a HAR file is one JSON
 * object with a {@code log}; anything else is read line by line.
 */
public final class SessionFile {
    private SessionFile() {
    }

    /**
     * The events the file records, in its order.
     *
     * @throws IllegalArgumentException naming the line or entry that cannot be read
     */
    public static List<ExchangeEvent> read(byte[] content) {
        String text = new String(content, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            throw new IllegalArgumentException("the file is empty");
        }
        if (text.startsWith("{") && !text.contains("\n{")) {
            JsonNode whole = parse(text, 1);
            if (whole.has("log")) {
                return HarReader.read(whole);
            }
        }
        List<ExchangeEvent> events = new ArrayList<>();
        String[] lines = text.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank()) {
                continue;
            }
            try {
                events.add(EventLine.read(parse(lines[i], i + 1)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return events;
    }

    private static JsonNode parse(String text, int line) {
        try {
            return WireJson.mapper().readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("line " + line + " is not JSON (" + e.getOriginalMessage()
                    + "); expected the tap's JSON Lines or a HAR file");
        }
    }
}
