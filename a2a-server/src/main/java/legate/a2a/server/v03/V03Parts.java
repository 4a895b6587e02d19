package legate.a2a.server.v03;

import static legate.a2a.server.v03.V03Input.invalid;
import static legate.a2a.server.v03.V03Input.object;
import static legate.a2a.server.v03.V03Input.optionalObject;
import static legate.a2a.server.v03.V03Input.optionalString;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.ByteString;
import java.util.Base64;
import lf.a2a.v1.Part;

/**
 * A v0.3 Part ({@code {kind:"text",text}}, {@code {kind:"file",file:{bytes|uri,name,mimeType}}},
 * {@code {kind:"data",data}}, each with optional {@code metadata}) and the v1.0 Part, one flat
 * message whose oneof member is the discriminator. The rules where the two do not map one to one
 * are listed in docs/peers.md §7:
 * <ul>
 *   <li>a file part with {@code bytes} is a {@code raw} part, with {@code uri} a {@code url} part;
 *       {@code name} is {@code filename} and {@code mimeType} is {@code mediaType};
 *   <li>a v0.3 text or data part has no media type and no file name: a v1.0 part's are dropped;
 *   <li>a v0.3 {@code data} is an object, a v1.0 one any JSON value: a value that is not an object
 *       goes out as {@code {"value": X}} with {@code metadata.data_part_compat: true}, and such a
 *       part comes back in unwrapped (PEER @a2a-js/sdk 1.2.0 compat layer: the same convention).
 * </ul>
 */
final class V03Parts {
    static final String DATA_PART_COMPAT = "data_part_compat";
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private V03Parts() {
    }

    static Part toV1(JsonNode json, String path) {
        ObjectNode part = object(json, path);
        String kind = optionalString(part, "kind", path);
        if (kind == null) {
            // PROTOCOL (A2A v0.3 §6.5): Part is a union discriminated by kind; without it there is no telling.
            throw invalid(path + ".kind", "is required (\"text\", \"file\" or \"data\")");
        }
        Part.Builder out = Part.newBuilder();
        ObjectNode metadata = optionalObject(part, "metadata", path);
        switch (kind) {
            case "text" -> {
                JsonNode text = part.get("text");
                if (text == null || !text.isTextual()) {
                    throw invalid(path + ".text", "must be a string");
                }
                out.setText(text.textValue());
            }
            case "file" -> file(object(part.get("file"), path + ".file"), path + ".file", out);
            case "data" -> {
                ObjectNode data = object(part.get("data"), path + ".data");
                if (metadata != null && metadata.path(DATA_PART_COMPAT).asBoolean(false) && data.has("value")) {
                    out.setData(StructJson.value(data.get("value")));
                    metadata = metadata.deepCopy();
                    metadata.remove(DATA_PART_COMPAT);
                } else {
                    out.setData(StructJson.value(data));
                }
            }
            default -> throw invalid(path + ".kind", "must be \"text\", \"file\" or \"data\", got \"" + kind + "\"");
        }
        if (metadata != null && !metadata.isEmpty()) {
            out.setMetadata(StructJson.struct(metadata));
        }
        return out.build();
    }

    private static void file(ObjectNode file, String path, Part.Builder out) {
        String bytes = optionalString(file, "bytes", path);
        String uri = optionalString(file, "uri", path);
        // PROTOCOL (A2A v0.3 §6.6): FileWithBytes and FileWithUri exclude each other.
        if ((bytes == null) == (uri == null)) {
            throw invalid(path, "must have exactly one of bytes and uri");
        }
        if (bytes != null) {
            out.setRaw(ByteString.copyFrom(base64(bytes, path + ".bytes")));
        } else {
            out.setUrl(uri);
        }
        String name = optionalString(file, "name", path);
        String mimeType = optionalString(file, "mimeType", path);
        if (name != null) {
            out.setFilename(name);
        }
        if (mimeType != null) {
            out.setMediaType(mimeType);
        }
    }

    /** Standard base64 (A2A v0.3 §6.6.1), and its URL-safe alphabet, which some peers send. */
    private static byte[] base64(String text, String path) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException notStandard) {
            try {
                return Base64.getUrlDecoder().decode(text);
            } catch (IllegalArgumentException e) {
                throw invalid(path, "must be base64");
            }
        }
    }

    static ObjectNode toV03(Part part) {
        ObjectNode out = JSON.objectNode();
        ObjectNode metadata = part.hasMetadata() ? StructJson.json(part.getMetadata()) : null;
        switch (part.getContentCase()) {
            case TEXT -> out.put("kind", "text").put("text", part.getText());
            case RAW -> out.put("kind", "file").set("file", file(part).put("bytes",
                    Base64.getEncoder().encodeToString(part.getRaw().toByteArray())));
            case URL -> out.put("kind", "file").set("file", file(part).put("uri", part.getUrl()));
            case DATA -> {
                out.put("kind", "data");
                JsonNode data = StructJson.json(part.getData());
                if (data.isObject()) {
                    out.set("data", data);
                } else {
                    out.set("data", JSON.objectNode().set("value", data));
                    metadata = metadata == null ? JSON.objectNode() : metadata;
                    metadata.put(DATA_PART_COMPAT, true);
                }
            }
            // A part without content is no valid v1.0 part; v0.3 has no kind for it, so it goes out as empty text.
            case CONTENT_NOT_SET -> out.put("kind", "text").put("text", "");
        }
        if (metadata != null && !metadata.isEmpty()) {
            out.set("metadata", metadata);
        }
        return out;
    }

    private static ObjectNode file(Part part) {
        ObjectNode file = JSON.objectNode();
        if (!part.getFilename().isEmpty()) {
            file.put("name", part.getFilename());
        }
        if (!part.getMediaType().isEmpty()) {
            file.put("mimeType", part.getMediaType());
        }
        return file;
    }
}
