package legate.cli;

import java.time.Duration;
import picocli.CommandLine;

/**
 * Durations as Legate's configuration writes them: a whole number and a unit, {@code 500ms}, {@code 30s},
 * {@code 10m}, {@code 12h}, {@code 7d}, or {@code 0} alone. Units are lower case only, so that
 * {@code m} is never mistaken for months. As a picocli converter, an error names the option.
 */
final class Durations implements CommandLine.ITypeConverter<Duration> {
    private static final String HOW = "write a whole number and a unit, ms, s, m, h or d (30s, 10m, 12h, 7d, 500ms), or 0";

    /** @throws IllegalArgumentException saying how to write one, when {@code text} is not a duration */
    static Duration parse(String text) {
        String v = text.strip();
        if (v.equals("0")) {
            return Duration.ZERO;
        }
        if (v.endsWith("ms")) {
            String millis = v.substring(0, v.length() - 2);
            if (millis.isEmpty() || millis.length() > 12 || !millis.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("\"" + text + "\" is not a duration: " + HOW);
            }
            return Duration.ofMillis(Long.parseLong(millis));
        }
        String number = v.isEmpty() ? "" : v.substring(0, v.length() - 1);
        if (number.isEmpty() || number.length() > 9 || !number.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("\"" + text + "\" is not a duration: " + HOW);
        }
        long n = Long.parseLong(number);
        return switch (v.charAt(v.length() - 1)) {
            case 's' -> Duration.ofSeconds(n);
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            case 'd' -> Duration.ofDays(n);
            default -> throw new IllegalArgumentException("\"" + text + "\" has no unit Legate knows: " + HOW);
        };
    }

    @Override
    public Duration convert(String value) {
        try {
            return parse(value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }
}
