package app.vigie.json;

import java.io.IOException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

import jakarta.inject.Singleton;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

import io.quarkus.jackson.ObjectMapperCustomizer;

/** Timestamps in answers: RFC 3339 UTC, always with milliseconds (microseconds when they are not zero). */
@Singleton
public class JsonConfig implements ObjectMapperCustomizer {
    private static final DateTimeFormatter MILLIS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter MICROS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'")
            .withZone(ZoneOffset.UTC);

    public static String format(Instant t) {
        return (t.getNano() % 1_000_000 == 0 ? MILLIS : MICROS).format(t);
    }

    /**
     * A mapper that writes records as the service's REST answers do (snake_case, every field, ISO-8601 instants),
     * outside Quarkus: the {@code plan} command prints what {@code POST /api/obligations/plan} answers.
     */
    public static ObjectMapper standalone() {
        return new ObjectMapper().findAndRegisterModules()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .setSerializationInclusion(JsonInclude.Include.ALWAYS)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("vigie-time").addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                gen.writeString(format(value));
            }
        }));
    }
}
