package legate.wire.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The one Jackson {@link ObjectMapper} every JSON wire in Legate is read and written with (A2A
 * JSON-RPC, ACP lines, MCP content, logs), configured once: reading is bounded so a hostile body
 * costs a clear error, not the process, and buffers come from one shared pool.
 *
 * <p>Not named {@code JsonMapper}: Jackson has a class of that name, and the two would meet in the
 * same imports. Thread-safe, as an ObjectMapper is once configured.
 */
public final class WireJson {
    /** Deeper JSON than this is refused: A2A messages nest a handful of levels, metadata a few more. */
    public static final int MAX_NESTING_DEPTH = 64;

    private static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING_DEPTH)
                    .maxStringLength(64 * 1024 * 1024)
                    .build())
            // Jackson's default buffer pool is per thread; with a virtual thread per request every
            // request would build its own buffers and every held stream keep them.
            .recyclerPool(JsonRecyclerPools.sharedLockFreePool())
            .build());

    private WireJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * A tree as JSON text, through the shared buffer pool. Not {@code JsonNode.toString()}: that
     * writes through Jackson's per-thread buffer cache, and with a virtual thread per request every
     * request kept its own 8 KB of buffers for as long as its thread lived (a held stream: as long
     * as the stream).
     */
    public static String write(JsonNode tree) {
        try {
            return MAPPER.writeValueAsString(tree);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }
}
