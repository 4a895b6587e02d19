package legate.a2a.server.grpc;

import io.grpc.netty.shaded.io.netty.buffer.ByteBuf;
import io.grpc.netty.shaded.io.netty.buffer.Unpooled;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Exception;
import io.grpc.netty.shaded.io.netty.handler.codec.http2.Http2Headers;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A bare HTTP/2 client in clear text with prior knowledge (RFC 9113 §3.3), over one loopback
 * socket: it writes the frames a test spells out, so a gRPC request's body can be bytes no gRPC
 * client would send (a broken length prefix). Only header compression is borrowed, from the Netty
 * that grpc-netty-shaded carries. One call at a time; every read waits 10 s at most.
 */
final class RawHttp2 implements AutoCloseable {
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int PING = 0x6;
    private static final int GOAWAY = 0x7;
    private static final int END_STREAM = 0x1;
    private static final int ACK = 0x1;
    private static final int END_HEADERS = 0x4;
    private static final int MAX_FRAMES_PER_CALL = 100;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder();
    private final DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
    private final String authority;
    private int nextStream = 1;

    RawHttp2(int port) throws IOException {
        this.socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.authority = "127.0.0.1:" + port;
        out.write(PREFACE);
        frame(SETTINGS, 0, 0, new byte[0]);
    }

    /**
     * A gRPC POST to {@code path} (a2a-version 1.0) whose body is {@code body}, sent as one DATA frame
     * that ends the stream. Returns how the stream ended: "grpc-status grpc-message" from its
     * trailers, or "RST_STREAM code" if it was reset with none.
     */
    String call(String path, byte[] body) throws IOException, Http2Exception {
        int stream = nextStream;
        nextStream += 2;
        Http2Headers headers = new DefaultHttp2Headers().method("POST").scheme("http").path(path).authority(authority)
                .add("content-type", "application/grpc").add("te", "trailers").add("a2a-version", "1.0");
        ByteBuf block = Unpooled.buffer();
        try {
            encoder.encodeHeaders(stream, headers, block);
            byte[] bytes = new byte[block.readableBytes()];
            block.readBytes(bytes);
            frame(HEADERS, END_HEADERS, stream, bytes);
        } finally {
            block.release();
        }
        frame(DATA, END_STREAM, stream, body);
        String status = null;
        for (int i = 0; i < MAX_FRAMES_PER_CALL; i++) {
            int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int id = in.readInt() & 0x7fffffff;
            byte[] payload = in.readNBytes(length);
            switch (type) {
                case SETTINGS -> {
                    if ((flags & ACK) == 0) {
                        frame(SETTINGS, ACK, 0, new byte[0]);
                    }
                }
                case PING -> {
                    if ((flags & ACK) == 0) {
                        frame(PING, ACK, 0, payload);
                    }
                }
                case HEADERS -> {
                    if ((flags & END_HEADERS) == 0) {
                        throw new IOException("a header block continued in CONTINUATION frames: not spoken here");
                    }
                    // Every block is decoded, another stream's too: the decoder's table follows the server's.
                    Http2Headers got = decoder.decodeHeaders(id, Unpooled.wrappedBuffer(payload));
                    if (id == stream && got.get("grpc-status") != null) {
                        status = got.get("grpc-status") + " " + got.get("grpc-message");
                    }
                    if (id == stream && (flags & END_STREAM) != 0) {
                        return status;
                    }
                }
                case DATA -> {
                    if (id == stream && (flags & END_STREAM) != 0) {
                        return status;
                    }
                }
                case RST_STREAM -> {
                    if (id == stream) {
                        return status != null ? status : "RST_STREAM " + (payload.length < 4 ? -1
                                : ((payload[0] & 0xff) << 24) | ((payload[1] & 0xff) << 16)
                                | ((payload[2] & 0xff) << 8) | (payload[3] & 0xff));
                    }
                }
                case GOAWAY -> throw new IOException("the server sent GOAWAY: the connection is over");
                default -> {
                    // WINDOW_UPDATE and the rest: nothing a one-call-at-a-time client must answer.
                }
            }
        }
        throw new IOException("stream " + stream + " did not end within " + MAX_FRAMES_PER_CALL + " frames");
    }

    private void frame(int type, int flags, int stream, byte[] payload) throws IOException {
        byte[] head = {(byte) (payload.length >>> 16), (byte) (payload.length >>> 8), (byte) payload.length,
                (byte) type, (byte) flags, (byte) (stream >>> 24), (byte) (stream >>> 16), (byte) (stream >>> 8),
                (byte) stream};
        out.write(head);
        out.write(payload);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
