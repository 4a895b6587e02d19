package legate.a2a.server.grpc;

import com.google.protobuf.Empty;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.net.URI;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;
import legate.a2a.model.A2aError;
import legate.a2a.model.A2aException;
import legate.a2a.model.A2aMethods;
import legate.a2a.model.grpc.GrpcErrorMapping;
import legate.a2a.model.grpc.GrpcMetadata;
import legate.a2a.server.Principal;
import legate.a2a.server.http.PeerForwarding;
import legate.a2a.server.observe.ServerMetrics;
import legate.a2a.server.task.RequestHandler;
import legate.a2a.server.task.RunsElsewhere;
import legate.a2a.server.task.ServerStopping;
import legate.a2a.server.task.Subscription;
import lf.a2a.v1.A2AServiceGrpc;
import lf.a2a.v1.AgentCard;
import lf.a2a.v1.CancelTaskRequest;
import lf.a2a.v1.DeleteTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetExtendedAgentCardRequest;
import lf.a2a.v1.GetTaskPushNotificationConfigRequest;
import lf.a2a.v1.GetTaskRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsRequest;
import lf.a2a.v1.ListTaskPushNotificationConfigsResponse;
import lf.a2a.v1.ListTasksRequest;
import lf.a2a.v1.ListTasksResponse;
import lf.a2a.v1.SendMessageRequest;
import lf.a2a.v1.SendMessageResponse;
import lf.a2a.v1.StreamResponse;
import lf.a2a.v1.SubscribeToTaskRequest;
import lf.a2a.v1.Task;
import lf.a2a.v1.TaskPushNotificationConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code lf.a2a.v1.A2AService} (A2A §10) on the {@link RequestHandler}: the method table of the
 * gRPC binding, each rpc one call of the handler as the principal {@link CallerInterceptor}
 * authenticated, its result the response message as it is (gRPC carries the proto itself, so
 * nothing is translated). An {@link A2aException} ends the call with the status
 * {@link GrpcErrorMapping} names; nothing else reaches the caller but INTERNAL. A call the handler
 * finds belongs to a conversation another instance runs ({@link RunsElsewhere}: SendMessage,
 * SendStreamingMessage, CancelTask, and the push configurations' Create and Delete, whose webhooks
 * that instance pumps) is carried out there ({@link GrpcPeerForwarding}), as on every binding.
 *
 * <p>A method the service does not have (another service, an unknown name) is answered
 * UNIMPLEMENTED by grpc-java itself, before anything here runs.
 */
final class A2aGrpcService extends A2AServiceGrpc.A2AServiceImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(A2aGrpcService.class);

    private final GrpcCallCounter counter;
    private final GrpcPeerForwarding forwarding;
    private final Set<GrpcEventStream> open = ConcurrentHashMap.newKeySet();
    // Streams relayed from the instance that runs their conversation: written here too.
    private final AtomicInteger relayed = new AtomicInteger();
    // Set once the card (which names this listener's port) and the handler over it exist.
    private volatile RequestHandler handler;

    A2aGrpcService(GrpcCallCounter counter, PeerForwarding forwarding) {
        this.counter = counter;
        this.forwarding = new GrpcPeerForwarding(forwarding);
    }

    void serve(RequestHandler h) {
        this.handler = h;
    }

    @Override
    public void sendMessage(SendMessageRequest request, StreamObserver<SendMessageResponse> response) {
        unary("SendMessage", response, () -> h().sendMessage(request, caller()), peer ->
                forwarding.unary(peer, A2aMethods.SEND_MESSAGE, request, headers(), SendMessageResponse.newBuilder()));
    }

    @Override
    public void sendStreamingMessage(SendMessageRequest request, StreamObserver<StreamResponse> response) {
        stream("SendStreamingMessage", response, () -> h().sendStreamingMessage(request, caller()), (peer, call) ->
                forwarding.stream(peer, A2aMethods.SEND_STREAMING_MESSAGE, request, headers(), call));
    }

    @Override
    public void getTask(GetTaskRequest request, StreamObserver<Task> response) {
        unary("GetTask", response, () -> h().getTask(request, caller()));
    }

    @Override
    public void listTasks(ListTasksRequest request, StreamObserver<ListTasksResponse> response) {
        unary("ListTasks", response, () -> h().listTasks(request, caller()));
    }

    @Override
    public void cancelTask(CancelTaskRequest request, StreamObserver<Task> response) {
        unary("CancelTask", response, () -> h().cancelTask(request, caller()), peer ->
                forwarding.unary(peer, A2aMethods.CANCEL_TASK, request, headers(), Task.newBuilder()));
    }

    /** The resumable-streams extension: {@code last-event-id} metadata resumes after that event, as SSE's header does. */
    @Override
    public void subscribeToTask(SubscribeToTaskRequest request, StreamObserver<StreamResponse> response) {
        String lastEventId = headers().get(GrpcMetadata.LAST_EVENT_ID);
        stream("SubscribeToTask", response, () -> h().subscribeToTask(request, lastEventId, caller()), null);
    }

    @Override
    public void createTaskPushNotificationConfig(TaskPushNotificationConfig request,
                                                 StreamObserver<TaskPushNotificationConfig> response) {
        unary("CreateTaskPushNotificationConfig", response, () -> h().createPushConfig(request, caller()), peer ->
                forwarding.unary(peer, A2aMethods.CREATE_PUSH_CONFIG, request, headers(),
                        TaskPushNotificationConfig.newBuilder()));
    }

    @Override
    public void getTaskPushNotificationConfig(GetTaskPushNotificationConfigRequest request,
                                              StreamObserver<TaskPushNotificationConfig> response) {
        unary("GetTaskPushNotificationConfig", response, () -> h().getPushConfig(request, caller()));
    }

    @Override
    public void listTaskPushNotificationConfigs(ListTaskPushNotificationConfigsRequest request,
                                                StreamObserver<ListTaskPushNotificationConfigsResponse> response) {
        unary("ListTaskPushNotificationConfigs", response, () -> h().listPushConfigs(request, caller()));
    }

    @Override
    public void deleteTaskPushNotificationConfig(DeleteTaskPushNotificationConfigRequest request,
                                                 StreamObserver<Empty> response) {
        unary("DeleteTaskPushNotificationConfig", response, () -> {
            h().deletePushConfig(request, caller());
            return Empty.getDefaultInstance();
        }, peer -> forwarding.unary(peer, A2aMethods.DELETE_PUSH_CONFIG, request, headers(), Empty.newBuilder()));
    }

    @Override
    public void getExtendedAgentCard(GetExtendedAgentCardRequest request, StreamObserver<AgentCard> response) {
        unary("GetExtendedAgentCard", response, () -> h().extendedAgentCard());
    }

    /** The streams being written now, those relayed from another instance included. */
    int openStreams() {
        return open.size() + relayed.get();
    }

    /** Ends every open stream cleanly, after the events already sent: the server is stopping. */
    void endStreams() {
        for (GrpcEventStream s : Set.copyOf(open)) {
            s.end();
        }
    }

    /** The handler; a call that comes between the bind and the card (nobody knows the port yet) is told to retry. */
    private RequestHandler h() {
        RequestHandler h = handler;
        if (h == null) {
            throw GrpcErrorMapping.exception(A2aError.INTERNAL, Status.Code.UNAVAILABLE,
                    "the agent is starting; call again in a moment", Map.of());
        }
        return h;
    }

    private static Principal caller() {
        return CallerInterceptor.CALLER.get();
    }

    private static Metadata headers() {
        return CallerInterceptor.HEADERS.get();
    }

    private <T> void unary(String method, StreamObserver<T> response, Supplier<T> call) {
        unary(method, response, call, null);
    }

    /** @param elsewhere how the instance that runs the call's conversation answers it, null where none can */
    private <T> void unary(String method, StreamObserver<T> response, Supplier<T> call, Function<URI, T> elsewhere) {
        long start = System.nanoTime();
        T result;
        try {
            result = call.get();
        } catch (RunsElsewhere e) {
            if (elsewhere == null) {
                response.onError(failure(method, e, start));
                return;
            }
            forwarded(method, start, response, () -> {
                T answer = elsewhere.apply(e.instanceUrl());
                counter.count(method, ServerMetrics.FORWARDED, start);
                response.onNext(answer);
                response.onCompleted();
            });
            return;
        } catch (RuntimeException e) {
            response.onError(failure(method, e, start));
            return;
        }
        // Counted before the answer leaves: a scrape that follows the answer sees it.
        counter.count(method, ServerMetrics.OK, start);
        response.onNext(result);
        response.onCompleted();
    }

    /** @param elsewhere how the instance that runs the call's conversation streams it, null where none can */
    private void stream(String method, StreamObserver<StreamResponse> response, Supplier<Subscription> open,
                        BiConsumer<URI, ServerCallStreamObserver<StreamResponse>> elsewhere) {
        long start = System.nanoTime();
        Subscription subscription;
        try {
            subscription = open.get();
        } catch (RunsElsewhere e) {
            if (elsewhere == null) {
                response.onError(failure(method, e, start));
                return;
            }
            forwarded(method, start, response, () -> {
                // Counted once the relayed stream is over (its errors are the peer's, counted there).
                relayed.incrementAndGet();
                try {
                    elsewhere.accept(e.instanceUrl(), (ServerCallStreamObserver<StreamResponse>) response);
                } finally {
                    relayed.decrementAndGet();
                }
                counter.count(method, ServerMetrics.FORWARDED, start);
            });
            return;
        } catch (RuntimeException e) {
            response.onError(failure(method, e, start));
            return;
        }
        counter.count(method, ServerMetrics.OK, start);
        new GrpcEventStream((ServerCallStreamObserver<StreamResponse>) response, subscription,
                A2aGrpcService::status, this.open, FirstEventIds.current()).start();
    }

    /**
     * A call carried out by another instance: counted as forwarded once it reached it, its errors
     * then the peer's own statuses (counted there). One that cannot be reached is UNAVAILABLE naming
     * it, the code gRPC clients retry on: its lease expires and another instance takes over.
     */
    private void forwarded(String method, long start, StreamObserver<?> response, Runnable call) {
        try {
            call.run();
        } catch (PeerForwarding.Unreachable e) {
            counter.count(method, A2aError.INTERNAL.code(), start);
            LOG.info("could not forward a gRPC {}: {}", method, e.getMessage());
            response.onError(GrpcErrorMapping.exception(A2aError.INTERNAL, Status.Code.UNAVAILABLE, e.getMessage(),
                    Map.of()));
        } catch (StatusRuntimeException peer) {
            counter.count(method, ServerMetrics.FORWARDED, start);
            response.onError(peer);
        } catch (RuntimeException e) {
            response.onError(failure(method, e, start));
        }
    }

    private RuntimeException failure(String method, RuntimeException e, long start) {
        if (e instanceof StatusRuntimeException status) {
            counter.count(method, A2aError.INTERNAL.code(), start);
            return status;
        }
        if (e instanceof A2aException a2a) {
            counter.count(method, a2a.error().code(), start);
            LOG.info("refused a gRPC {}: {} {}", method, a2a.error().code(), a2a.getMessage());
            return status(a2a);
        }
        if (e instanceof RunsElsewhere elsewhere) {
            // Only the methods that start or cancel a turn are placed, and each of those forwards;
            // should another ever be placed, its caller is told where, and to try again.
            counter.count(method, A2aError.INTERNAL.code(), start);
            return GrpcErrorMapping.exception(A2aError.INTERNAL, Status.Code.UNAVAILABLE,
                    "this conversation runs on another instance of the agent (" + elsewhere.instanceUrl()
                            + "), to which " + method + " is not forwarded; call that instance", Map.of());
        }
        LOG.error("internal error answering gRPC {}", method, e);
        counter.count(method, A2aError.INTERNAL.code(), start);
        return GrpcErrorMapping.exception(A2aError.INTERNAL, "Internal error");
    }

    /**
     * An A2A error as its gRPC status. A server that is draining answers UNAVAILABLE, the code gRPC
     * clients and balancers take as "try again, elsewhere", as the JSON-RPC binding answers 503.
     */
    private static RuntimeException status(A2aException e) {
        if (e instanceof ServerStopping) {
            return GrpcErrorMapping.exception(e.error(), Status.Code.UNAVAILABLE, e.getMessage(), Map.of());
        }
        return GrpcErrorMapping.exception(e.error(), e.getMessage());
    }
}
