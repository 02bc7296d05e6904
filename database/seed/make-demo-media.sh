#!/bin/sh
# Regenerates the demo funnel's clips: 480x270 VP8 WebM, no audio, a title, a seconds counter and
# a progress bar so seeking is visible. Needs ffmpeg with libvpx and libfreetype (Debian's ffmpeg).
set -eu
cd "$(dirname "$0")"
FONT=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
clip() { # file colour title subtitle seconds
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "color=c=$2:s=480x270:r=15:d=$5" \
    -f lavfi -i "color=c=white:s=480x6:r=15:d=$5" \
    -filter_complex "[1]format=rgba,colorchannelmixer=aa=0.7[bar];[0][bar]overlay=x='-w+w*t/$5':y=H-h[bg];[bg]drawtext=fontfile=$FONT:text='$3':fontsize=34:fontcolor=white:x=(w-text_w)/2:y=70,drawtext=fontfile=$FONT:text='$4':fontsize=18:fontcolor=white@0.9:x=(w-text_w)/2:y=122,drawtext=fontfile=$FONT:text='%{eif\\:t\\:d} s':fontsize=14:fontcolor=white@0.8:x=w-text_w-12:y=12" \
    -c:v libvpx -b:v 120k -crf 30 -auto-alt-ref 0 -an "$1"
}
clip demo-intro.webm '#2f27ce' 'Welcome to Branchify' 'Pick a path with the buttons' 12
clip demo-tour.webm '#0f766e' 'The tour' 'You picked the first button' 10
clip demo-plans.webm '#b45309' 'The plans' 'You picked the second button' 10
