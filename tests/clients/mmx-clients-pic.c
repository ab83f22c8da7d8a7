// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmx-clients-pic - the pictures a real client should have put on a screen.
 *
 * The real-client tests (tests/clients/) let Xorg or weston draw, read the
 * client's own idea of the screen back (an xwd dump of the X root window) and
 * compare it with what the display shows: mmx's CRC of the composed frame
 * (the virtual backend) or QEMU's screendump (the virtio-gpu backend). This
 * tool turns the client's picture into the expected frame.
 *
 * Usage:
 *   mmx-clients-pic crc-solid W H RRGGBB
 *   mmx-clients-pic ppm-solid W H RRGGBB OUT.ppm
 *   mmx-clients-pic crc FILE.xwd [OPTION]...
 *   mmx-clients-pic ppm FILE.xwd OUT.ppm [OPTION]...
 * Options, applied in this order:
 *   --crop X,Y,W,H      the CRTC's viewport of the screen (--fb, --panning)
 *   --reflect-x         mirror left to right (a --transform -1,0,W,0,1,0,...)
 *   --rotate R          R = normal, left, inverted or right (xrandr --rotate)
 *
 * crc prints the CRC that mmx's debugfs reports for that frame: crc32_le with
 * seed 0 and no final inversion over the XRGB8888 pixels, X = 0xff (see
 * mmx_composer.c). crc-solid does the same for a frame of one colour, and
 * ppm-solid writes such a frame as a PPM.
 * Exit status: 0 done, 1 unreadable or unsupported input, 2 bad usage.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "mmx-clients-pic";

struct picture {
	unsigned long w, h;
	uint32_t *px;		/* 0xffRRGGBB, row after row */
};

static void die(const char *what)
{
	fprintf(stderr, "%s: %s\n", prog, what);
	exit(1);
}

static void usage(void)
{
	fprintf(stderr,
		"Usage: %s crc-solid W H RRGGBB\n"
		"       %s ppm-solid W H RRGGBB OUT.ppm\n"
		"       %s crc FILE.xwd [--crop X,Y,W,H] [--reflect-x] [--rotate R]\n"
		"       %s ppm FILE.xwd OUT.ppm [same options]\n",
		prog, prog, prog, prog);
	exit(2);
}

static uint32_t crc32_le_seed0(const uint32_t *px, size_t count)
{
	static uint32_t table[256];
	uint32_t crc = 0;
	size_t i;
	int byte, bit;

	if (!table[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t c = i;

			for (bit = 0; bit < 8; bit++)
				c = (c >> 1) ^ (0xedb88320u & -(c & 1));
			table[i] = c;
		}
	}
	for (i = 0; i < count; i++)
		for (byte = 0; byte < 4; byte++)
			crc = (crc >> 8) ^
			      table[(crc ^ (px[i] >> (8 * byte))) & 0xff];
	return crc;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static unsigned int mask_shift(uint32_t mask)
{
	unsigned int s = 0;

	while (mask && !(mask & 1)) {
		mask >>= 1;
		s++;
	}
	return s;
}

/* An xwd dump of a TrueColor 24/32-bit ZPixmap (what `xwd -root` writes). */
static void read_xwd(const char *path, struct picture *pic)
{
	unsigned char hdr[100], *row;
	uint32_t header_size, ncolors, bpp, bpl, byte_order, rm, gm, bm;
	unsigned int rs, gs, bs;
	unsigned long x, y;
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	if (fread(hdr, 1, sizeof(hdr), f) != sizeof(hdr))
		die("short xwd header");
	header_size = be32(hdr);
	if (be32(hdr + 4) != 7 || be32(hdr + 8) != 2)
		die("not an xwd version 7 ZPixmap dump");
	pic->w = be32(hdr + 16);
	pic->h = be32(hdr + 20);
	byte_order = be32(hdr + 28);
	bpp = be32(hdr + 44);
	bpl = be32(hdr + 48);
	rm = be32(hdr + 56);
	gm = be32(hdr + 60);
	bm = be32(hdr + 64);
	ncolors = be32(hdr + 76);
	if (bpp != 32 || header_size < sizeof(hdr) || !pic->w || !pic->h ||
	    pic->w > 16384 || pic->h > 16384 || bpl < pic->w * 4)
		die("unsupported xwd dump (want 32 bits per pixel)");
	if (fseek(f, (long)header_size + 12L * ncolors, SEEK_SET))
		die("truncated xwd dump");
	rs = mask_shift(rm);
	gs = mask_shift(gm);
	bs = mask_shift(bm);
	pic->px = malloc(pic->w * pic->h * 4);
	row = malloc(bpl);
	if (!pic->px || !row)
		die("out of memory");
	for (y = 0; y < pic->h; y++) {
		if (fread(row, 1, bpl, f) != bpl)
			die("truncated xwd pixels");
		for (x = 0; x < pic->w; x++) {
			const unsigned char *p = row + 4 * x;
			uint32_t v = byte_order ?
				be32(p) :
				(uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
				(uint32_t)p[1] << 8 | p[0];

			pic->px[y * pic->w + x] = 0xff000000u |
				((v & rm) >> rs & 0xff) << 16 |
				((v & gm) >> gs & 0xff) << 8 |
				((v & bm) >> bs & 0xff);
		}
	}
	free(row);
	fclose(f);
}

static void crop(struct picture *pic, const char *arg)
{
	unsigned long cx, cy, cw, ch, y;
	uint32_t *out;

	if (sscanf(arg, "%lu,%lu,%lu,%lu", &cx, &cy, &cw, &ch) != 4 ||
	    !cw || !ch || cx + cw > pic->w || cy + ch > pic->h)
		die("--crop X,Y,W,H must lie inside the picture");
	out = malloc(cw * ch * 4);
	if (!out)
		die("out of memory");
	for (y = 0; y < ch; y++)
		memcpy(out + y * cw, pic->px + (cy + y) * pic->w + cx, cw * 4);
	free(pic->px);
	pic->px = out;
	pic->w = cw;
	pic->h = ch;
}

static void reflect_x(struct picture *pic)
{
	unsigned long x, y;

	for (y = 0; y < pic->h; y++) {
		uint32_t *row = pic->px + y * pic->w;

		for (x = 0; x < pic->w / 2; x++) {
			uint32_t t = row[x];

			row[x] = row[pic->w - 1 - x];
			row[pic->w - 1 - x] = t;
		}
	}
}

/*
 * RandR rotations turn the picture counter-clockwise: "left" (RR_Rotate_90)
 * shows the screen's top edge on the monitor's left.
 */
static void rotate(struct picture *pic, const char *how)
{
	unsigned long w = pic->w, h = pic->h, x, y, ow, oh;
	uint32_t *out;
	int quarter;

	if (!strcmp(how, "normal"))
		return;
	if (!strcmp(how, "left"))
		quarter = 1;
	else if (!strcmp(how, "inverted"))
		quarter = 2;
	else if (!strcmp(how, "right"))
		quarter = 3;
	else
		die("--rotate wants normal, left, inverted or right");
	ow = quarter == 2 ? w : h;
	oh = quarter == 2 ? h : w;
	out = malloc(w * h * 4);
	if (!out)
		die("out of memory");
	for (y = 0; y < oh; y++) {
		for (x = 0; x < ow; x++) {
			unsigned long sx, sy;

			if (quarter == 1) {		/* counter-clockwise */
				sx = w - 1 - y;
				sy = x;
			} else if (quarter == 2) {
				sx = w - 1 - x;
				sy = h - 1 - y;
			} else {			/* clockwise */
				sx = y;
				sy = h - 1 - x;
			}
			out[y * ow + x] = pic->px[sy * w + sx];
		}
	}
	free(pic->px);
	pic->px = out;
	pic->w = ow;
	pic->h = oh;
}

static void write_ppm(const struct picture *pic, const char *path)
{
	FILE *f = fopen(path, "wb");
	unsigned long i;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(1);
	}
	fprintf(f, "P6\n%lu %lu\n255\n", pic->w, pic->h);
	for (i = 0; i < pic->w * pic->h; i++) {
		putc(pic->px[i] >> 16 & 0xff, f);
		putc(pic->px[i] >> 8 & 0xff, f);
		putc(pic->px[i] & 0xff, f);
	}
	if (fclose(f))
		die("cannot write the PPM");
}

int main(int argc, char **argv)
{
	struct picture pic;
	const char *out = NULL;
	int i = 3;

	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "crc-solid") || !strcmp(argv[1], "ppm-solid")) {
		int to_ppm = !strcmp(argv[1], "ppm-solid");
		unsigned long n;
		uint32_t colour;
		char *end;

		if (argc != 5 + to_ppm)
			usage();
		pic.w = strtoul(argv[2], NULL, 10);
		pic.h = strtoul(argv[3], NULL, 10);
		colour = strtoul(argv[4], &end, 16);
		if (!pic.w || !pic.h || pic.w > 16384 || pic.h > 16384 || *end)
			usage();
		pic.px = malloc(pic.w * pic.h * 4);
		if (!pic.px)
			die("out of memory");
		for (n = 0; n < pic.w * pic.h; n++)
			pic.px[n] = 0xff000000u | colour;
		if (to_ppm) {
			write_ppm(&pic, argv[5]);
			return 0;
		}
		printf("%08x\n", crc32_le_seed0(pic.px, pic.w * pic.h));
		return 0;
	}
	if (!strcmp(argv[1], "ppm")) {
		if (argc < 4)
			usage();
		out = argv[3];
		i = 4;
	} else if (strcmp(argv[1], "crc")) {
		usage();
	}
	read_xwd(argv[2], &pic);
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "--crop") && i + 1 < argc)
			crop(&pic, argv[++i]);
		else if (!strcmp(argv[i], "--reflect-x"))
			reflect_x(&pic);
		else if (!strcmp(argv[i], "--rotate") && i + 1 < argc)
			rotate(&pic, argv[++i]);
		else
			usage();
	}
	if (out)
		write_ppm(&pic, out);
	else
		printf("%08x\n", crc32_le_seed0(pic.px, pic.w * pic.h));
	return 0;
}
