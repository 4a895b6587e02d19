package legate.store.sqlite;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.ExtensionRegistryLite;
import com.google.protobuf.WireFormat;
import java.io.IOException;
import java.util.List;
import legate.a2a.server.task.LoggedEvent;
import legate.store.sqlite.WriteOp.Append;
import lf.a2a.v1.StreamResponse;

/**
 * A row of the events table that holds several consecutive events of one task, the ones one batch
 * wrote for it (schema version 4). Its blob is what {@code repeated lf.a2a.v1.StreamResponse
 * events = 1;} encodes to: each event as field 1, length-delimited, in sequence order. Written from
 * the bytes each {@link Append} already carries, so the writer thread encodes nothing again; read
 * back skipping, not parsing, the events a reader already has.
 */
final class EventChunk {
    private static final int EVENT = 1 << 3 | WireFormat.WIRETYPE_LENGTH_DELIMITED;

    private EventChunk() {
    }

    /** The chunk of {@code appends}, one task's consecutive events. */
    static byte[] encode(List<Append> appends) {
        int size = 0;
        for (Append a : appends) {
            size += CodedOutputStream.computeByteArraySize(1, a.encoded());
        }
        byte[] chunk = new byte[size];
        CodedOutputStream out = CodedOutputStream.newInstance(chunk);
        try {
            for (Append a : appends) {
                out.writeByteArray(1, a.encoded());
            }
        } catch (IOException e) {
            throw new IllegalStateException("the chunk's size was computed short", e);
        }
        out.checkNoSpaceLeft();
        return chunk;
    }

    /**
     * Adds to {@code out} the events of the chunk numbered {@code firstSeq} to {@code lastSeq} that
     * come after {@code afterSeq}, in order.
     *
     * @throws IllegalStateException when the chunk does not decode or holds another number of events
     */
    static void decode(byte[] chunk, long firstSeq, long lastSeq, long afterSeq, String taskId,
                       List<LoggedEvent> out) {
        CodedInputStream in = CodedInputStream.newInstance(chunk);
        long seq = firstSeq;
        try {
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (tag != EVENT) {
                    throw new IOException("field " + WireFormat.getTagFieldNumber(tag) + " where an event was expected");
                }
                if (seq > afterSeq) {
                    out.add(new LoggedEvent(seq, in.readMessage(StreamResponse.parser(),
                            ExtensionRegistryLite.getEmptyRegistry())));
                } else {
                    in.skipField(tag);
                }
                seq++;
            }
        } catch (IOException e) {
            throw new IllegalStateException("logged events " + firstSeq + " to " + lastSeq + " of task " + taskId
                    + " no longer decode", e);
        }
        if (seq != lastSeq + 1) {
            throw new IllegalStateException("logged events " + firstSeq + " to " + lastSeq + " of task " + taskId
                    + " are " + (seq - firstSeq) + " in the file");
        }
    }
}
