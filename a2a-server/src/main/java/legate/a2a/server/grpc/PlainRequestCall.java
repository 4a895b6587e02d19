package legate.a2a.server.grpc;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.SecurityLevel;
import io.grpc.ServerCall;
import io.grpc.Status;

/**
 * A call whose requests {@link MalformedRequests} reads, as the interceptors and the service know
 * it: of the method's own request type, everything else forwarded (the attributes carry the
 * peer's address and TLS session, which authentication reads). It remembers whether it was
 * closed, so that a refusal never closes a call a second time.
 */
final class PlainRequestCall<Q, R> extends ServerCall<Q, R> {
    private final ServerCall<MalformedRequests.Parsed<Q>, R> call;
    private final MethodDescriptor<Q, R> method;
    private volatile boolean closed;

    PlainRequestCall(ServerCall<MalformedRequests.Parsed<Q>, R> call, MethodDescriptor<Q, R> method) {
        this.call = call;
        this.method = method;
    }

    boolean closed() {
        return closed;
    }

    @Override
    public void close(Status status, Metadata trailers) {
        closed = true;
        call.close(status, trailers);
    }

    @Override
    public void request(int numMessages) {
        call.request(numMessages);
    }

    @Override
    public void sendHeaders(Metadata headers) {
        call.sendHeaders(headers);
    }

    @Override
    public void sendMessage(R message) {
        call.sendMessage(message);
    }

    @Override
    public boolean isReady() {
        return call.isReady();
    }

    @Override
    public boolean isCancelled() {
        return call.isCancelled();
    }

    @Override
    public void setMessageCompression(boolean enabled) {
        call.setMessageCompression(enabled);
    }

    @Override
    public void setCompression(String compressor) {
        call.setCompression(compressor);
    }

    @Override
    public void setOnReadyThreshold(int numBytes) {
        call.setOnReadyThreshold(numBytes);
    }

    @Override
    public SecurityLevel getSecurityLevel() {
        return call.getSecurityLevel();
    }

    @Override
    public Attributes getAttributes() {
        return call.getAttributes();
    }

    @Override
    public String getAuthority() {
        return call.getAuthority();
    }

    @Override
    public MethodDescriptor<Q, R> getMethodDescriptor() {
        return method;
    }
}
