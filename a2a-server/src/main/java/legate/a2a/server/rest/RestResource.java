package legate.a2a.server.rest;

import static legate.a2a.model.A2aMethods.CANCEL_TASK;
import static legate.a2a.model.A2aMethods.CREATE_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.DELETE_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.GET_EXTENDED_AGENT_CARD;
import static legate.a2a.model.A2aMethods.GET_PUSH_CONFIG;
import static legate.a2a.model.A2aMethods.GET_TASK;
import static legate.a2a.model.A2aMethods.LIST_PUSH_CONFIGS;
import static legate.a2a.model.A2aMethods.LIST_TASKS;
import static legate.a2a.model.A2aMethods.SEND_MESSAGE;
import static legate.a2a.model.A2aMethods.SEND_STREAMING_MESSAGE;
import static legate.a2a.model.A2aMethods.SUBSCRIBE_TO_TASK;

import java.util.Map;

/**
 * The resources of the HTTP+JSON binding, each with the HTTP methods it answers and the A2A
 * operation each method is (A2A §11.3, the proto's {@code google.api.http} annotations). A method
 * not listed is 405 with an {@code Allow} header naming those that are.
 */
enum RestResource {
    MESSAGE_SEND(Map.of("POST", SEND_MESSAGE)),
    MESSAGE_STREAM(Map.of("POST", SEND_STREAMING_MESSAGE)),
    TASKS(Map.of("GET", LIST_TASKS)),
    TASK(Map.of("GET", GET_TASK)),
    TASK_CANCEL(Map.of("POST", CANCEL_TASK)),
    // PROTOCOL (A2A §11.3 says POST; the proto's annotation says GET): both are answered.
    // PEER (@a2a-js/sdk 1.2.0): its server accepts both, its client POSTs.
    TASK_SUBSCRIBE(Map.of("POST", SUBSCRIBE_TO_TASK, "GET", SUBSCRIBE_TO_TASK)),
    PUSH_CONFIGS(Map.of("POST", CREATE_PUSH_CONFIG, "GET", LIST_PUSH_CONFIGS)),
    PUSH_CONFIG(Map.of("GET", GET_PUSH_CONFIG, "DELETE", DELETE_PUSH_CONFIG)),
    EXTENDED_AGENT_CARD(Map.of("GET", GET_EXTENDED_AGENT_CARD));

    private final Map<String, String> operations;

    RestResource(Map<String, String> operations) {
        this.operations = operations;
    }

    /** The A2A operation {@code httpMethod} is on this resource, or null when it answers no such method. */
    String operation(String httpMethod) {
        return operations.get(httpMethod);
    }

    /** The value of the Allow header of a 405. */
    String allow() {
        return String.join(", ", operations.keySet().stream().sorted().toList());
    }
}
