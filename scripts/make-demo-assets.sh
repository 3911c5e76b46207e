#!/usr/bin/env bash
# How the committed demo media in assets/demo/ and public/img/noimage.png were made.
# Build-time only: needs ffmpeg (libmp3lame, libx264, libwebp) and Debian's Chromium; the site
# itself never runs this (server/demo-media/prepare-demo-media.ts copies the results and
# builds the 60+ minute mix from the mp3 loops in pure Node).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=assets/demo
BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
FRAMES=1148                       # one loop = 1148 MPEG frames (see scripts/demo-assets/synth-loops.ts)
LOOP_SEC=29.988571                # 1148 * 1152 / 44100
FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

rm -rf "$OUT" && mkdir -p "$OUT"/{audio,hls/demo-mix,video} public/img

# 1. Four loops, synthesised as three back-to-back periods each.
npx tsx scripts/demo-assets/synth.ts "$BUILD" 3

# 2. CBR mp3, no ID3, no Xing/Info frame, bit reservoir off (every frame decodes on its own);
#    the middle period's frames are cut out so the loop repeats without a gap or click.
for wav in "$BUILD"/loop*.wav; do
  name=$(basename "$wav" .wav)
  ff -i "$wav" -c:a libmp3lame -b:a 128k -ar 44100 -ac 2 -reservoir 0 -write_xing 0 -id3v2_version 0 "$BUILD/$name.x3.mp3"
  npx tsx scripts/demo-assets/slice-mp3.ts "$BUILD/$name.x3.mp3" "$OUT/audio/$name.mp3" $FRAMES $FRAMES
  ff -i "$wav" -t $LOOP_SEC "$BUILD/$name.1x.wav"
done

# 3. One loop as AAC in MP4 (moov first, so playback starts before the whole file arrives).
ff -i "$BUILD/loop2-disco-d-minor.1x.wav" -c:a aac -b:a 128k -movflags +faststart "$OUT/audio/loop2-disco-d-minor.m4a"

# 4. HLS VOD: three loops back to back (~90 s), AAC in fragmented MP4 (.m4s), 6 s segments.
#    fMP4 rather than MPEG-TS: ".ts" segments would look like TypeScript to every tool here.
printf "file '%s'\n" "$BUILD"/loop3-*.1x.wav "$BUILD"/loop1-*.1x.wav "$BUILD"/loop4-*.1x.wav > "$BUILD/hls.txt"
ff -f concat -safe 0 -i "$BUILD/hls.txt" -c:a aac -b:a 128k -ar 44100 \
  -f hls -hls_time 6 -hls_playlist_type vod -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
  -hls_segment_filename "$OUT/hls/demo-mix/seg-%03d.m4s" "$OUT/hls/demo-mix/index.m3u8"

# 5. A 30 s H.264/AAC music video: animated gradient, spectrum bars and waveform of loop 4.
ff -i "$BUILD/loop4-electro-f-minor.1x.wav" \
  -f lavfi -i "gradients=s=640x360:c0=0x12002a:c1=0x5b0a8c:c2=0xd6186f:c3=0x0a4c8c:n=4:speed=0.015:duration=$LOOP_SEC:rate=30" \
  -filter_complex "[0:a]asplit=2[a1][a2];\
[a1]showfreqs=s=640x150:mode=bar:ascale=log:fscale=log:cmode=combined:colors=0xffc83d:win_size=1024:averaging=2,format=rgba,colorkey=black:0.1:0.0,colorchannelmixer=aa=0.8[bars];\
[a2]showwaves=s=640x110:mode=cline:rate=30:colors=0x00e5ff,format=rgba,colorkey=black:0.1:0.0[waves];\
[1:v][bars]overlay=0:210[v1];[v1][waves]overlay=0:70[v2];\
[v2]drawtext=fontfile=$FONT:text='DJ搜索引擎网 · 演示视频':fontcolor=white:fontsize=30:x=(w-tw)/2:y=16:shadowcolor=black@0.6:shadowx=2:shadowy=2,\
drawtext=fontfile=$FONT:text='128 BPM  %{pts\:hms}':fontcolor=white@0.9:fontsize=18:x=16:y=h-th-12:shadowcolor=black@0.6:shadowx=1:shadowy=1[v]" \
  -map "[v]" -map 0:a -c:v libx264 -profile:v main -preset slow -crf 28 -maxrate 500k -bufsize 1000k \
  -pix_fmt yuv420p -g 60 -c:a aac -b:a 96k -movflags +faststart -t $LOOP_SEC "$OUT/video/demo-visualizer.mp4"

# 6. Covers, banners, logos and the no-image placeholder, drawn in Chromium, then WebP.
npx tsx scripts/demo-assets/images.ts "$BUILD/img"
for png in "$BUILD"/img/{covers,banners,logos}/*.png; do
  rel=${png#"$BUILD/img/"}
  mkdir -p "$OUT/$(dirname "$rel")"
  ff -i "$png" -c:v libwebp -quality 82 -pix_fmt yuva420p "$OUT/${rel%.png}.webp"
done
cp "$BUILD/img/noimage.png" public/img/noimage.png

du -sh "$OUT" && find "$OUT" public/img -type f | sort
